// Codec glue without its own type declarations (wasm imports are typed by worker-configuration.d.ts).
declare module '@cornerstonejs/codec-libjpeg-turbo-8bit/wasmjs' {
  const createLibJpegTurbo: (overrides: { instantiateWasm: unknown }) => Promise<unknown>;
  export default createLibJpegTurbo;
}
