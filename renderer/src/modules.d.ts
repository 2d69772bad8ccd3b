// Codec glue without its own type declarations (wasm imports are typed by worker-configuration.d.ts).
declare module '@cornerstonejs/codec-libjpeg-turbo-8bit/wasmjs' {
  /** Emscripten MODULARIZE factory: resolves to the module with the embind classes (see jpeg-encoder.ts). */
  const createLibJpegTurbo: (overrides: Record<string, unknown>) => Promise<unknown>;
  export default createLibJpegTurbo;
}
