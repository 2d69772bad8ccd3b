/**
 * The unrar WebAssembly module. wrangler (and the vitest workers pool) turn a static `.wasm` import
 * into a compiled WebAssembly.Module, so the isolate never compiles from bytes at request time. Kept
 * in its own module so Node tools can substitute a module compiled from the same file.
 */
import unrarWasm from 'node-unrar-js/dist/js/unrar.wasm';

export const unrarWasmModule = (): WebAssembly.Module => unrarWasm;
