import type { LegacyWorkerOptions } from 'miniflare';

/** Absolute path of the bundled renderer entry (index.js next to its .wasm modules), rebuilt when stale. */
export function bundleRenderer(root: string): string;

/** Miniflare worker options that run the bundled renderer as an auxiliary worker named `longbox-renderer`. */
export function rendererAuxiliaryWorker(root: string): Promise<LegacyWorkerOptions>;
