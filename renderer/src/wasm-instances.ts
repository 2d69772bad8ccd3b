/**
 * Instantiates the codecs' statically imported wasm modules (workerd compiles them at deploy time and
 * refuses to compile bytes at run time) and keeps a ledger of their linear memories. Linear memory never
 * shrinks, so a codec whose memory grew past MAX_RETAINED_BYTES for one big job is dropped after the job
 * and re-created on demand: the 128 MB isolate limit covers every instance that is still referenced.
 */
const MAX_RETAINED_BYTES = 24 * 1024 * 1024;

const memories = new Map<string, WebAssembly.Memory>();

function exportedMemory(instance: WebAssembly.Instance): WebAssembly.Memory {
  for (const value of Object.values(instance.exports)) {
    if (value instanceof WebAssembly.Memory) return value;
  }
  throw new Error('wasm instance exports no memory');
}

/** `new WebAssembly.Instance` that records the instance's memory under `name` (one live instance per name). */
export function instantiate(name: string, module: WebAssembly.Module, imports: WebAssembly.Imports) {
  const instance = new WebAssembly.Instance(module, imports);
  memories.set(name, exportedMemory(instance));
  return instance;
}

export function forgetInstance(name: string): void {
  memories.delete(name);
}

/** The named codec's linear memory, for glue that copies in and out of its heap itself. */
export function memoryOf(name: string): WebAssembly.Memory {
  const memory = memories.get(name);
  if (!memory) throw new Error(`no live wasm instance named ${name}`);
  return memory;
}

/** True when the named codec's memory is too large to keep between jobs. */
export function isOversized(name: string, limit = MAX_RETAINED_BYTES): boolean {
  return (memories.get(name)?.buffer.byteLength ?? 0) > limit;
}

/** Bytes of wasm linear memory held by live codec instances, per codec (what counts against 128 MB). */
export function wasmMemoryBytes(): Record<string, number> {
  return Object.fromEntries([...memories].map(([name, memory]) => [name, memory.buffer.byteLength]));
}
