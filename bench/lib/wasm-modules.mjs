// `node --import tsx --import ./bench/lib/wasm-modules.mjs …`: lets Node import `.wasm` files the way
// wrangler bundles them for workerd — the default export is a compiled WebAssembly.Module — so bench
// tools can run src/media (the unrar engine imports its module that way) unchanged.
import { register } from 'node:module';

register('./wasm-hooks.mjs', import.meta.url);
