// Module hooks registered by wasm-modules.mjs: a `.wasm` URL loads as a module whose default export is
// the file compiled with `new WebAssembly.Module`.
export async function load(url, context, nextLoad) {
  if (!url.endsWith('.wasm')) return nextLoad(url, context);
  const source = `import { readFileSync } from 'node:fs';
export default new WebAssembly.Module(readFileSync(new URL(${JSON.stringify(url)})));`;
  return { format: 'module', source, shortCircuit: true };
}
