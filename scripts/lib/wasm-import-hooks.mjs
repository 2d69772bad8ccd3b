// Node module hooks for running Worker source in Node (the `openapi` command): a `.wasm` import becomes
// a compiled WebAssembly.Module, as wrangler bundles it for workerd, instead of a wasm ES module.
import { register } from 'node:module';

register(
  `data:text/javascript,${encodeURIComponent(`
    export async function load(url, context, nextLoad) {
      if (!url.endsWith('.wasm')) return nextLoad(url, context);
      return {
        format: 'module',
        shortCircuit: true,
        source: 'import { readFileSync } from "node:fs"; import { fileURLToPath } from "node:url";' +
          'export default new WebAssembly.Module(readFileSync(fileURLToPath(' + JSON.stringify(url) + ')));',
      };
    }
  `)}`,
);
