/**
 * The Node project's stand-in for a `.wasm` import: wrangler bundles such imports as a compiled
 * WebAssembly.Module, so Node tests compile the same file (vitest.config.ts aliases the import here).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Module } = WebAssembly as unknown as { Module: new (bytes: Uint8Array) => WebAssembly.Module };

export default new Module(readFileSync(require.resolve('node-unrar-js/dist/js/unrar.wasm')));
