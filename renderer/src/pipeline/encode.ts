/**
 * The last step of every job: a raster in any channel layout to JPEG, lossy WebP or PNG. Encoders load
 * lazily, one per job (`prepareEncoder` before the synchronous decode → resize → encode run, so nothing
 * else can run in the isolate between decode and encode).
 */
import type { EncodeOptions, OutputFormat } from '../../../src/media/image-renderer';
import { encodeJpeg, prepareJpegEncoder } from '../codecs/jpeg-encoder';
import { encodePng } from '../codecs/png';
import { encodeWebp, prepareWebpEncoder } from '../codecs/webp';
import { invalidOption } from '../errors';
import { type Raster, toRgba, toRgbOnWhite } from '../raster';

export const DEFAULT_QUALITY = 80;

export const OUTPUT_MEDIA_TYPES: Record<OutputFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

export function checkEncodeOptions(options: EncodeOptions): void {
  if (!(options.format in OUTPUT_MEDIA_TYPES)) throw invalidOption('format must be jpeg, png or webp');
  const { quality } = options;
  if (quality !== undefined && (!Number.isInteger(quality) || quality < 1 || quality > 100)) {
    throw invalidOption('quality must be a whole number from 1 to 100');
  }
}

export async function prepareEncoder(format: OutputFormat): Promise<void> {
  if (format === 'jpeg') await prepareJpegEncoder();
  if (format === 'webp') await prepareWebpEncoder();
  // The PNG codec instantiates synchronously on first use.
}

/** Composites alpha onto white for JPEG early, so resizing works on 3 channels instead of 4. */
export function layoutFor(format: OutputFormat, raster: Raster): Raster {
  return format === 'jpeg' ? toRgbOnWhite(raster) : raster;
}

export function encode(raster: Raster, options: EncodeOptions): Uint8Array {
  const quality = options.quality ?? DEFAULT_QUALITY;
  switch (options.format) {
    case 'jpeg':
      return encodeJpeg(toRgbOnWhite(raster), quality);
    case 'webp':
      return encodeWebp(toRgba(raster), quality);
    case 'png':
      return encodePng(toRgba(raster));
  }
}
