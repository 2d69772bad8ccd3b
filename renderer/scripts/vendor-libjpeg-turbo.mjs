#!/usr/bin/env node
// Writes renderer/vendor/libjpegturbo-encoder.wasm: @cornerstonejs/codec-libjpeg-turbo-8bit's wasm with its
// declared initial memory lowered from 50 MiB to 4 MiB. The module was linked with TOTAL_MEMORY=50mb and
// memory growth on; its data and stack end at ~0.15 MiB, so 4 MiB is safe and the heap still grows on demand.
// Without this every isolate that ever encodes a JPEG holds 50 MiB of its 128 MB (docs: edge-feasibility §1).
// workerd refuses to compile wasm from bytes at run time, so the patched module must exist before bundling;
// test/node/renderer-vendored-wasm.test.ts fails when this file drifts from the installed package.
//
// Usage: node renderer/scripts/vendor-libjpeg-turbo.mjs          (rewrite the vendored file)
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { patchInitialMemory } from './wasm-memory-section.mjs';

const INITIAL_PAGES = 64; // 64 × 64 KiB = 4 MiB
const source = fileURLToPath(
  new URL('../../node_modules/@cornerstonejs/codec-libjpeg-turbo-8bit/dist/libjpegturbowasm.wasm', import.meta.url),
);
const target = fileURLToPath(new URL('../vendor/libjpegturbo-encoder.wasm', import.meta.url));

const patched = patchInitialMemory(readFileSync(source), INITIAL_PAGES);
writeFileSync(target, patched);
console.log(`wrote ${target} (${patched.byteLength} bytes, initial memory ${INITIAL_PAGES * 64} KiB)`);
