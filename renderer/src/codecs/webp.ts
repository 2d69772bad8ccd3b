/**
 * WebP with libwebp (@jsquash/webp's emscripten builds, called directly so the SIMD encoder is chosen
 * statically and no codec loads before a job needs it). Output is always lossy: a lossless WebP of a
 * scanned page is 5–8× larger than the JPEG it replaces. Method 4 is libwebp's default speed/size balance.
 */
import createWebpDecoder from '@jsquash/webp/codec/dec/webp_dec.js';
import decoderModule from '@jsquash/webp/codec/dec/webp_dec.wasm';
import createWebpEncoder from '@jsquash/webp/codec/enc/webp_enc_simd.js';
import encoderModule from '@jsquash/webp/codec/enc/webp_enc_simd.wasm';
import { defaultOptions } from '@jsquash/webp/meta.js';
import { corruptImage } from '../errors';
import type { Raster } from '../raster';
import { startEmscripten } from '../emscripten';
import { forgetInstance, isOversized } from '../wasm-instances';

const ENCODER = 'webp-encoder';
const DECODER = 'webp-decoder';
const METHOD = 4;

type Encoder = Awaited<ReturnType<typeof createWebpEncoder>>;
type Decoder = Awaited<ReturnType<typeof createWebpDecoder>>;

let encoder: Promise<Encoder> | null = null;
let readyEncoder: Encoder | null = null;
let decoder: Promise<Decoder> | null = null;
let readyDecoder: Decoder | null = null;

export async function prepareWebpEncoder(): Promise<void> {
  encoder ??= startEmscripten(ENCODER, createWebpEncoder, encoderModule);
  readyEncoder = await encoder;
}

export async function prepareWebpDecoder(): Promise<void> {
  decoder ??= startEmscripten(DECODER, createWebpDecoder, decoderModule);
  readyDecoder = await decoder;
}

/** Lossy WebP of an RGBA raster; `prepareWebpEncoder` must have resolved. */
export function encodeWebp(raster: Raster, quality: number): Uint8Array {
  if (!readyEncoder) throw new Error('WebP encoder used before prepareWebpEncoder()');
  if (raster.channels !== 4) throw new Error('encodeWebp takes RGBA');
  const options = { ...defaultOptions, quality, method: METHOD, lossless: 0 };
  try {
    const encoded = readyEncoder.encode(raster.data, raster.width, raster.height, options);
    if (!encoded) throw new Error('libwebp refused to encode the image');
    return encoded.slice(); // own the bytes: the glue may hand out a view
  } finally {
    if (isOversized(ENCODER)) {
      encoder = null;
      readyEncoder = null;
      forgetInstance(ENCODER);
    }
  }
}

/** RGBA pixels of a WebP (first frame of an animation); `prepareWebpDecoder` must have resolved. */
export function decodeWebp(webp: Uint8Array): Raster {
  if (!readyDecoder) throw new Error('WebP decoder used before prepareWebpDecoder()');
  try {
    const image = readyDecoder.decode(webp);
    if (!image) throw corruptImage('WebP');
    const data = new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.byteLength);
    return { width: image.width, height: image.height, channels: 4, data };
  } finally {
    if (isOversized(DECODER)) {
      decoder = null;
      readyDecoder = null;
      forgetInstance(DECODER);
    }
  }
}
