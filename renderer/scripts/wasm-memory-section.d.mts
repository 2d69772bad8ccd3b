/** Returns a copy of `wasm` whose module-defined memory starts at `initialPages` × 64 KiB. */
export function patchInitialMemory(wasm: Uint8Array, initialPages: number): Uint8Array;
