/**
 * JPEG encoding with libjpeg-turbo's tjCompress2 (@cornerstonejs/codec-libjpeg-turbo-8bit, embind
 * `JPEGEncoder`): baseline, 4:2:0 chroma, no trellis. 800×1230 in ~25 ms, where mozjpeg's trellis takes
 * ~250 ms for 3 % fewer bytes (edge-feasibility §1). Grayscale input gives a one-component JPEG.
 *
 * The wasm is the package's with its declared 50 MiB initial memory cut to 4 MiB
 * (renderer/scripts/vendor-libjpeg-turbo.mjs); the heap grows on demand.
 *
 * Output buffer: the C++ wrapper sizes its output to the input buffer and compresses with
 * TJFLAG_NOREALLOC, so a JPEG larger than the raw pixels (always for tiny images, whose tables alone
 * take ~600 bytes) overruns it and aborts the module. The input buffer is sized from `bitsPerSample`
 * (its only use, since the pixel format is fixed to 8-bit RGB/gray; it is a uint8, so at most 32 bytes
 * per sample), so we declare a larger sample size when the raw pixels cannot hold the largest JPEG we
 * expect, and fill only the first w·h·c bytes. Images under SMALL_IMAGE_PIXELS are first padded to whole
 * 16×16 MCUs in RGB (enough room with that factor) and the frame header then gets the real size back:
 * the MCU grid, and so the entropy-coded data, is the same for both sizes.
 */
import createLibJpegTurbo from '@cornerstonejs/codec-libjpeg-turbo-8bit/wasmjs';
import encoderModule from '../../vendor/libjpegturbo-encoder.wasm';
import type { Raster } from '../raster';
import { startEmscripten } from '../emscripten';
import { forgetInstance, isOversized } from '../wasm-instances';

const NAME = 'libjpeg-turbo-encoder';
const TJSAMP_420 = 2;
const MAX_BYTES_PER_SAMPLE = 32;
const SMALL_IMAGE_PIXELS = 4096;
const MCU = 16;

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

/**
 * Room for the largest JPEG we expect: pure noise at quality 100 measured 1.99 bytes/px (RGB, 4:2:0) and
 * 1.58 bytes/px (gray), plus 2 KiB of headers. tjBufSize's guarantee (3 and 2 bytes/px) would double the
 * encoder's heap on every large page for content that does not exist in books.
 */
function expectedMaxJpegBytes(pixels: number, channels: 1 | 3): number {
  return Math.ceil(pixels * (channels === 1 ? 1.75 : 2.5)) + 2048;
}

/** An RGB copy grown to whole MCUs by repeating the last column and row (what libjpeg pads with). */
function padToMcu(raster: Raster): Raster {
  const width = Math.ceil(raster.width / MCU) * MCU;
  const height = Math.ceil(raster.height / MCU) * MCU;
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const from = Math.min(y, raster.height - 1) * raster.width + Math.min(x, raster.width - 1);
      for (let c = 0; c < 3; c++)
        data[(y * width + x) * 3 + c] = raster.data[from * raster.channels + (raster.channels === 1 ? 0 : c)]!;
    }
  }
  return { width, height, channels: 3, data };
}

/** Writes the real size into the baseline frame header (SOF0) of a JPEG encoded from a padded raster. */
function setFrameSize(jpeg: Uint8Array, width: number, height: number): Uint8Array {
  const view = new DataView(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength);
  for (let offset = 2; offset + 9 < jpeg.length; offset += 2 + view.getUint16(offset + 2)) {
    if (jpeg[offset + 1] === 0xc0) {
      view.setUint16(offset + 5, height);
      view.setUint16(offset + 7, width);
      return jpeg;
    }
  }
  throw new Error('libjpeg-turbo output has no baseline frame header');
}

let codec: Promise<LibJpegTurbo> | null = null;
let ready: LibJpegTurbo | null = null;

/** Loads the encoder once per isolate (and again after an oversized job dropped it). */
export async function prepareJpegEncoder(): Promise<void> {
  codec ??= startEmscripten(NAME, createLibJpegTurbo as (o: object) => Promise<LibJpegTurbo>, encoderModule);
  ready = await codec;
}

/** Encodes a gray or RGB raster; `prepareJpegEncoder` must have resolved. */
export function encodeJpeg(raster: Raster, quality: number): Uint8Array {
  if (raster.channels === 4) throw new Error('encodeJpeg takes gray or RGB; composite alpha first');
  if (raster.width * raster.height >= SMALL_IMAGE_PIXELS) return compress(raster, quality);
  return setFrameSize(compress(padToMcu(raster), quality), raster.width, raster.height);
}

function compress(raster: Raster, quality: number): Uint8Array {
  if (!ready) throw new Error('JPEG encoder used before prepareJpegEncoder()');
  const { width, height, channels } = raster;
  if (channels === 4) throw new Error('unreachable: RGBA reached the JPEG encoder');
  const headroom = Math.ceil(expectedMaxJpegBytes(width * height, channels) / raster.data.byteLength);
  if (headroom > MAX_BYTES_PER_SAMPLE) throw new Error(`no room to encode a ${width}×${height} JPEG`);
  const encoder = new ready.JPEGEncoder();
  let failed = true;
  try {
    const frame = { width, height, bitsPerSample: 8 * headroom, componentCount: channels, isSigned: false };
    encoder.getDecodedBuffer(frame).set(raster.data);
    encoder.setQuality(quality);
    encoder.setProgressive(0);
    encoder.setSubSampling(TJSAMP_420);
    encoder.encode();
    const encoded = encoder.getEncodedBuffer(); // a JS copy (Uint8ClampedArray), not a view into the wasm heap
    failed = false;
    return new Uint8Array(encoded.buffer, encoded.byteOffset, encoded.byteLength);
  } finally {
    if (!failed) encoder.delete();
    if (failed || isOversized(NAME)) {
      // An emscripten abort leaves the module unusable; a grown heap is too large to keep.
      codec = null;
      ready = null;
      forgetInstance(NAME);
    }
  }
}
