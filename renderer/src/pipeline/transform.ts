/**
 * Image jobs: bytes in, resized/re-encoded bytes out. JPEG sources are decoded at the smallest DCT scale
 * that still covers the target (k/8), then triangle-resized to the exact size; PNG, WebP, GIF and Netpbm
 * sources are decoded whole. Decode, resize and encode run synchronously after the codecs are loaded, and the
 * decoded JPEG is read straight out of the decoder's heap, so a job holds at most one full-size raster.
 */
import type { RenderedImage, TransformOptions } from '../../../src/media/image-renderer';
import { decodeGif } from '../codecs/gif';
import { decodeNetpbm } from '../codecs/netpbm';
import { withDecodedJpeg } from '../codecs/jpeg-decoder';
import { decodePng } from '../codecs/png';
import { decodeWebp, prepareWebpDecoder } from '../codecs/webp';
import { formatMiB, RenderFailure } from '../errors';
import { type Probe, probeImage } from '../probe';
import { type Channels, type Raster, rasterBytes } from '../raster';
import { checkEncodeOptions, encode, layoutFor, OUTPUT_MEDIA_TYPES, prepareEncoder } from './encode';
import { checkSide, fitSize, type Size } from './geometry';
import { resize } from './resize';

/**
 * Decoded-pixel budgets. A JPEG's pixels exist once (in the decoder's heap); PNG/WebP/GIF decoders hand
 * back a JS copy of their heap's pixels, so two copies exist for a moment. Both keep one job under ~64 MB.
 */
const MAX_JPEG_DECODED_BYTES = 48 * 1024 * 1024;
const MAX_OTHER_DECODED_BYTES = 32 * 1024 * 1024;

function checkBudget(limit: number) {
  return (width: number, height: number, channels: Channels) => {
    const bytes = rasterBytes(width, height, channels);
    if (bytes > limit) {
      throw new RenderFailure(
        'too_large',
        `The image is ${width}×${height} pixels (${formatMiB(bytes)} decoded); the renderer decodes at most ${formatMiB(limit)} at once`,
      );
    }
  };
}

function decodeWhole(bytes: Uint8Array, probe: Probe): Raster {
  checkBudget(MAX_OTHER_DECODED_BYTES)(probe.width, probe.height, 4);
  if (probe.format === 'png') return decodePng(bytes);
  if (probe.format === 'webp') return decodeWebp(bytes);
  if (probe.format === 'gif') return decodeGif(bytes);
  return decodeNetpbm(bytes);
}

export function checkTransformOptions(options: TransformOptions): void {
  checkSide('width', options.width);
  checkSide('height', options.height);
  checkEncodeOptions(options);
}

/** Scales `raster` to `target` and encodes it; shared by image and PDF jobs. */
export function finish(raster: Raster, target: Size, options: TransformOptions): RenderedImage {
  const laidOut = layoutFor(options.format, raster);
  const sized = resize(laidOut, target.width, target.height);
  const encoded = encode(sized, options);
  return {
    bytes: encoded.buffer.slice(encoded.byteOffset, encoded.byteOffset + encoded.byteLength) as ArrayBuffer,
    mediaType: OUTPUT_MEDIA_TYPES[options.format],
    width: target.width,
    height: target.height,
  };
}

export async function transformImage(bytes: Uint8Array, options: TransformOptions): Promise<RenderedImage> {
  checkTransformOptions(options);
  const probe = probeImage(bytes);
  const target = fitSize(probe, options);
  const unchanged = target.width === probe.width && target.height === probe.height;
  if (unchanged && probe.format === options.format && options.quality === undefined) {
    // Nothing to do: hand back the original bytes rather than a generation loss.
    const original = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    return { bytes: original, mediaType: OUTPUT_MEDIA_TYPES[options.format], ...target };
  }
  await prepareEncoder(options.format);
  if (probe.format === 'webp') await prepareWebpDecoder();
  if (probe.format === 'jpeg') {
    return withDecodedJpeg(bytes, target.width, target.height, checkBudget(MAX_JPEG_DECODED_BYTES), (raster) =>
      finish(raster, target, options),
    );
  }
  return finish(decodeWhole(bytes, probe), target, options);
}
