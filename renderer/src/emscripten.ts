/**
 * Starting an emscripten module in workerd, which is neither a browser nor Node:
 * - The .wasm cannot be fetched or compiled at run time: the glue gets an `instantiateWasm` hook that
 *   instantiates the module wrangler bundled.
 * - workerd (compatibility dates from 2026) defines a Node-like `process` global even without
 *   nodejs_compat, and emscripten glue picks its environment from globals when its factory is called:
 *   with `process` it takes the Node branch (`require('fs')`, `__dirname`), without it the web-worker
 *   branch, which reads `self.location.href`. For that synchronous call `process` is hidden and an empty
 *   `location` is provided; both are restored right after.
 */
import { instantiate } from './wasm-instances';

type Factory<T> = (overrides: Record<string, unknown>) => Promise<T>;

function withWorkerLikeGlobals<T>(call: () => T): T {
  const globals = globalThis as { process?: unknown; location?: unknown };
  const process = Object.getOwnPropertyDescriptor(globalThis, 'process');
  const addLocation = globals.location === undefined;
  if (process) delete globals.process;
  if (addLocation) globals.location = { href: '' };
  try {
    return call();
  } finally {
    if (process) Object.defineProperty(globalThis, 'process', process);
    if (addLocation) delete globals.location;
  }
}

/** Runs `factory` (the glue's default export) on the bundled `module`, recording it as `name`. */
export function startEmscripten<T>(name: string, factory: Factory<T>, module: WebAssembly.Module): Promise<T> {
  const instantiateWasm = (imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance) => void) => {
    const instance = instantiate(name, module, imports);
    receive(instance);
    return instance.exports;
  };
  return withWorkerLikeGlobals(() => factory({ noInitialRun: true, instantiateWasm }));
}
