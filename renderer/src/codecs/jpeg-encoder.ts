/**
 * JPEG encoding with libjpeg-turbo's tjCompress2 (@cornerstonejs/codec-libjpeg-turbo-8bit, embind
 * `JPEGEncoder`): baseline, 4:2:0 chroma, no trellis. 800×1230 in ~25 ms, where mozjpeg's trellis takes
 * ~250 ms for 3 % fewer bytes (edge-feasibility §1). Grayscale input gives a one-component JPEG.
 *
 * The wasm is the package's with its declared 50 MiB initial memory cut to 4 MiB
 * (renderer/scripts/vendor-libjpeg-turbo.mjs); the heap grows on demand.
 */
import createLibJpegTurbo from '@cornerstonejs/codec-libjpeg-turbo-8bit/wasmjs';
import encoderModule from '../../vendor/libjpegturbo-encoder.wasm';
import type { Raster } from '../raster';
import { emscriptenInstantiator, forgetInstance, isOversized } from '../wasm-instances';

const NAME = 'libjpeg-turbo-encoder';
const TJSAMP_420 = 2;

interface JpegEncoder {
  getDecodedBuffer(frame: {
    width: number;
    height: number;
    bitsPerSample: number;
    componentCount: number;
    isSigned: boolean;
  }): Uint8Array;
  getEncodedBuffer(): Uint8Array;
  setQuality(quality: number): void;
  setProgressive(progressive: number): void;
  setSubSampling(subsampling: number): void;
  encode(): void;
  delete(): void;
}

interface LibJpegTurbo {
  JPEGEncoder: new () => JpegEncoder;
}

let codec: Promise<LibJpegTurbo> | null = null;
let ready: LibJpegTurbo | null = null;

/** Loads the encoder once per isolate (and again after an oversized job dropped it). */
export async function prepareJpegEncoder(): Promise<void> {
  codec ??= createLibJpegTurbo({
    instantiateWasm: emscriptenInstantiator(NAME, encoderModule),
  }) as Promise<LibJpegTurbo>;
  ready = await codec;
}

/** Encodes a gray or RGB raster; `prepareJpegEncoder` must have resolved. */
export function encodeJpeg(raster: Raster, quality: number): Uint8Array {
  if (!ready) throw new Error('JPEG encoder used before prepareJpegEncoder()');
  if (raster.channels === 4) throw new Error('encodeJpeg takes gray or RGB; composite alpha first');
  const encoder = new ready.JPEGEncoder();
  try {
    const { width, height, channels } = raster;
    encoder
      .getDecodedBuffer({ width, height, bitsPerSample: 8, componentCount: channels, isSigned: false })
      .set(raster.data);
    encoder.setQuality(quality);
    encoder.setProgressive(0);
    encoder.setSubSampling(TJSAMP_420);
    encoder.encode();
    const encoded = encoder.getEncodedBuffer(); // a JS copy (Uint8ClampedArray), not a view into the wasm heap
    return new Uint8Array(encoded.buffer, encoded.byteOffset, encoded.byteLength);
  } finally {
    encoder.delete();
    if (isOversized(NAME)) {
      codec = null;
      ready = null;
      forgetInstance(NAME);
    }
  }
}
