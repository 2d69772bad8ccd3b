/**
 * The renderer bundles a patched copy of the libjpeg-turbo encoder wasm (renderer/vendor/, initial memory
 * 50 MiB → 4 MiB). Its JS glue comes from node_modules, so the copy must match the installed package:
 * after an upgrade, rerun `node renderer/scripts/vendor-libjpeg-turbo.mjs`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { patchInitialMemory } from '../../renderer/scripts/wasm-memory-section.mjs';

const installed = 'node_modules/@cornerstonejs/codec-libjpeg-turbo-8bit/dist/libjpegturbowasm.wasm';
const vendored = 'renderer/vendor/libjpegturbo-encoder.wasm';

describe('renderer vendored wasm (edge-feasibility §1: cornerstone initial memory)', () => {
  it('is the installed encoder with only its initial memory lowered', () => {
    const expected = patchInitialMemory(readFileSync(installed), 64);
    expect(Buffer.compare(Buffer.from(expected), readFileSync(vendored))).toBe(0);
  });
});
