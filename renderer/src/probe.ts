/**
 * What an image is and how large, from its first bytes alone: the renderer trusts the bytes, not the file
 * name or the caller's media type (archives mislabel pages). Sizes come from the format headers (JPEG SOF,
 * PNG IHDR, WebP VP8/VP8L/VP8X, GIF screen descriptor, the Netpbm text header), so probing decodes nothing.
 */
import { readNetpbmHeader, sniffNetpbm } from './codecs/netpbm';
import { corruptImage, RenderFailure } from './errors';

export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'pbm' | 'pgm' | 'ppm';

export const MEDIA_TYPES: Record<ImageFormat, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  pbm: 'image/x-portable-bitmap',
  pgm: 'image/x-portable-graymap',
  ppm: 'image/x-portable-pixmap',
};

export interface Probe {
  format: ImageFormat;
  width: number;
  height: number;
}

const ascii = (bytes: Uint8Array, offset: number, length: number) =>
  String.fromCharCode(...bytes.subarray(offset, offset + length));

export function sniffFormat(bytes: Uint8Array): ImageFormat | null {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (ascii(bytes, 0, 8) === '\x89PNG\r\n\x1a\n') return 'png';
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return 'webp';
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return 'gif';
  return sniffNetpbm(bytes);
}

function jpegSize(bytes: Uint8Array, view: DataView): [number, number] | null {
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) {
      offset++; // fill byte
      continue;
    }
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return [view.getUint16(offset + 7), view.getUint16(offset + 5)];
    offset += 2 + view.getUint16(offset + 2);
  }
  return null;
}

function webpSize(bytes: Uint8Array, view: DataView): [number, number] | null {
  const chunk = ascii(bytes, 12, 4);
  if (chunk === 'VP8 ' && bytes.length >= 30)
    return [view.getUint16(26, true) & 0x3fff, view.getUint16(28, true) & 0x3fff];
  if (chunk === 'VP8L' && bytes.length >= 25) {
    const bits = view.getUint32(21, true);
    return [(bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1];
  }
  if (chunk === 'VP8X' && bytes.length >= 30) {
    const w = bytes[24]! | (bytes[25]! << 8) | (bytes[26]! << 16);
    const h = bytes[27]! | (bytes[28]! << 8) | (bytes[29]! << 16);
    return [w + 1, h + 1];
  }
  return null;
}

export function probeImage(bytes: Uint8Array): Probe {
  const format = sniffFormat(bytes);
  if (!format) {
    throw new RenderFailure(
      'unsupported_input',
      'Not an image the renderer can read (it reads JPEG, PNG, WebP, GIF and Netpbm)',
    );
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let size: [number, number] | null = null;
  if (format === 'jpeg') size = jpegSize(bytes, view);
  else if (format === 'png' && bytes.length >= 24 && ascii(bytes, 12, 4) === 'IHDR')
    size = [view.getUint32(16), view.getUint32(20)];
  else if (format === 'webp') size = webpSize(bytes, view);
  else if (format === 'gif' && bytes.length >= 10) size = [view.getUint16(6, true), view.getUint16(8, true)];
  else if (format === 'pbm' || format === 'pgm' || format === 'ppm') {
    const header = readNetpbmHeader(bytes);
    size = [header.width, header.height];
  }
  if (!size || size[0] === 0 || size[1] === 0) throw corruptImage(format.toUpperCase(), 'no valid size in its header');
  return { format, width: size[0], height: size[1] };
}
