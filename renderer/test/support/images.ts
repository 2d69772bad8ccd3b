/**
 * Test inputs made with the renderer's own encoders (sharp cannot run inside workerd): a comic-like
 * synthetic page (gradient fill, black panel borders and diagonal line art) in any size and layout.
 */
import { exports } from 'cloudflare:workers';
import type { ImageRendererRpc, RenderResult } from '../../../src/media/image-renderer';
import { withDecodedJpeg } from '../../src/codecs/jpeg-decoder';
import { encodeJpeg, prepareJpegEncoder } from '../../src/codecs/jpeg-encoder';
import { encodePng } from '../../src/codecs/png';
import { encodeWebp, prepareWebpEncoder } from '../../src/codecs/webp';
import type { Channels, Raster } from '../../src/raster';

/** The renderer's RPC entrypoint, exactly as the API worker's service binding reaches it. */
export const renderer = (exports as unknown as { ImageRenderer: ImageRendererRpc }).ImageRenderer;

export function syntheticPage(width: number, height: number, channels: Channels = 3): Raster {
  const data = new Uint8Array(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const border = x % 200 < 4 || y % 300 < 4;
      const line = Math.abs(((x + 2 * y) % 97) - 48) < 2;
      const ink = border || line;
      const rgb = ink ? [20, 20, 20] : [(x * 255) / width, (y * 255) / height, 160];
      const o = (y * width + x) * channels;
      if (channels === 1) data[o] = (rgb[0]! + rgb[1]! + rgb[2]!) / 3;
      else {
        data.set(rgb, o);
        if (channels === 4) data[o + 3] = 255;
      }
    }
  }
  return { width, height, channels, data };
}

const toBuffer = (bytes: Uint8Array) => bytes.slice().buffer as ArrayBuffer;

export async function jpegOf(raster: Raster, quality = 90): Promise<ArrayBuffer> {
  await prepareJpegEncoder();
  return toBuffer(encodeJpeg(raster, quality));
}

export function pngOf(raster: Raster): ArrayBuffer {
  return toBuffer(encodePng(raster));
}

export async function webpOf(raster: Raster, quality = 90): Promise<ArrayBuffer> {
  await prepareWebpEncoder();
  return toBuffer(encodeWebp(raster, quality));
}

/** Decodes a JPEG the renderer produced, to look at its pixels (RGB or gray, full size). */
export function jpegPixels(bytes: ArrayBuffer): Raster {
  return withDecodedJpeg(
    new Uint8Array(bytes),
    Number.MAX_SAFE_INTEGER,
    Number.MAX_SAFE_INTEGER,
    () => {},
    (raster) => ({
      ...raster,
      data: raster.data.slice(),
    }),
  );
}

export function ok<T>(result: RenderResult<T>): T {
  if (!result.ok) throw new Error(`expected success, got ${result.code}: ${result.message}`);
  return result.value;
}

export const ascii = (bytes: ArrayBuffer, start: number, length: number) =>
  String.fromCharCode(...new Uint8Array(bytes, start, length));

/** Number of colour components in a JPEG's frame header (1 = grayscale). */
export function jpegComponents(bytes: ArrayBuffer): number {
  const view = new Uint8Array(bytes);
  for (let i = 2; i < view.length - 10; ) {
    const marker = view[i + 1]!;
    if (marker >= 0xc0 && marker <= 0xc2) return view[i + 9]!;
    i += 2 + ((view[i + 2]! << 8) | view[i + 3]!);
  }
  throw new Error('no SOF marker');
}
