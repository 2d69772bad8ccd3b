/**
 * Image width and height from the first bytes of a page (JPEG SOF, PNG IHDR, GIF, WebP VP8/VP8L/VP8X,
 * AVIF ispe, BMP), for the deferred dimensions pass: no decoder, no wasm, usually one small read.
 */
import type { ImageDimensions } from './container';

/** `need-more` = the header is longer than the bytes given so far; null = not a recognised image. */
export type HeaderResult = ImageDimensions | 'need-more' | null;

/** JPEG files may carry large EXIF/ICC segments before the frame header; stop looking after this. */
export const HEADER_SCAN_LIMIT = 512 * 1024;

const u16be = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const u16le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const u24le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
const u32be = (b: Uint8Array, i: number) => ((b[i]! << 24) | (b[i + 1]! << 16) | (b[i + 2]! << 8) | b[i + 3]!) >>> 0;
const i32le = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24);
const tag = (b: Uint8Array, i: number) => String.fromCharCode(b[i]!, b[i + 1]!, b[i + 2]!, b[i + 3]!);

function dimensions(width: number, height: number): ImageDimensions | null {
  return width > 0 && height > 0 ? { width, height } : null;
}

/** The dimensions typed with the format the bytes are in. */
function typed(result: HeaderResult, mediaType: string): HeaderResult {
  return result && result !== 'need-more' ? { ...result, mediaType } : result;
}

const NETPBM_TYPES: Record<string, string> = {
  P1: 'image/x-portable-bitmap',
  P4: 'image/x-portable-bitmap',
  P2: 'image/x-portable-graymap',
  P5: 'image/x-portable-graymap',
  P3: 'image/x-portable-pixmap',
  P6: 'image/x-portable-pixmap',
};

/** Netpbm (PBM/PGM/PPM): `P6`, then width and height as decimal text, with whitespace and `#` comments between. */
function netpbm(b: Uint8Array): HeaderResult {
  const numbers: number[] = [];
  let i = 2;
  while (numbers.length < 2) {
    if (i >= b.length) return b.length < 1024 ? 'need-more' : null;
    const c = b[i]!;
    if (c === 0x23) {
      while (i < b.length && b[i] !== 0x0a) i++;
      continue;
    }
    if (c === 0x20 || (c >= 0x09 && c <= 0x0d)) {
      i++;
      continue;
    }
    if (c < 0x30 || c > 0x39) return null;
    let value = 0;
    while (i < b.length && b[i]! >= 0x30 && b[i]! <= 0x39) value = value * 10 + (b[i++]! - 0x30);
    if (i >= b.length) return 'need-more';
    numbers.push(value);
  }
  return dimensions(numbers[0]!, numbers[1]!);
}

const JPEG_SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpeg(b: Uint8Array): HeaderResult {
  let i = 2;
  while (true) {
    if (i + 4 > b.length) return 'need-more';
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i += 1; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image / scan data before any frame header
    if (JPEG_SOF.has(marker)) {
      if (i + 9 > b.length) return 'need-more';
      return dimensions(u16be(b, i + 7), u16be(b, i + 5));
    }
    i += 2 + u16be(b, i + 2);
  }
}

function webp(b: Uint8Array): HeaderResult {
  if (b.length < 16) return 'need-more';
  const chunk = tag(b, 12);
  if (chunk === 'VP8 ') return b.length < 30 ? 'need-more' : dimensions(u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff);
  if (chunk === 'VP8L') {
    if (b.length < 25) return 'need-more';
    const b1 = b[22]!;
    const b2 = b[23]!;
    const b3 = b[24]!;
    return dimensions(1 + (((b1 & 0x3f) << 8) | b[21]!), 1 + (((b3 & 0x0f) << 10) | (b2 << 2) | ((b1 & 0xc0) >> 6)));
  }
  if (chunk === 'VP8X') return b.length < 30 ? 'need-more' : dimensions(1 + u24le(b, 24), 1 + u24le(b, 27));
  return null;
}

/** ISOBMFF boxes inside [start, end): calls visit(type, contentStart, boxEnd); 'need-more' if cut short. */
function boxes(
  b: Uint8Array,
  start: number,
  end: number,
  visit: (type: string, at: number, to: number) => HeaderResult | undefined,
): HeaderResult | undefined {
  let i = start;
  while (i + 8 <= end) {
    let size = u32be(b, i);
    let header = 8;
    if (size === 1) {
      if (i + 16 > b.length) return 'need-more';
      size = u32be(b, i + 8) * 2 ** 32 + u32be(b, i + 12);
      header = 16;
    } else if (size === 0) {
      size = end - i;
    }
    if (size < header) return null;
    const type = tag(b, i + 4);
    const result = visit(type, i + header, i + size);
    if (result !== undefined) return result;
    i += size;
  }
  return i < end ? 'need-more' : undefined;
}

function avif(b: Uint8Array): HeaderResult {
  let best: ImageDimensions | null = null;
  const inside = (
    from: number,
    to: number,
    want: string,
    then: (at: number, end: number) => HeaderResult | undefined,
  ) =>
    boxes(b, from, to, (type, at, end) => {
      if (type !== want) return undefined;
      if (end > b.length) return 'need-more';
      return then(at, end);
    });
  const result = inside(0, b.length, 'meta', (metaAt, metaEnd) =>
    inside(metaAt + 4, metaEnd, 'iprp', (iprpAt, iprpEnd) =>
      inside(iprpAt, iprpEnd, 'ipco', (ipcoAt, ipcoEnd) => {
        // Several ispe (tiles, alpha, thumbnails): the largest is the full image.
        boxes(b, ipcoAt, ipcoEnd, (type, at) => {
          if (type === 'ispe' && at + 12 <= b.length) {
            const found = dimensions(u32be(b, at + 4), u32be(b, at + 8));
            if (found && (!best || found.width * found.height > best.width * best.height)) best = found;
          }
          return undefined;
        });
        return best;
      }),
    ),
  );
  return result ?? (b.length < HEADER_SCAN_LIMIT ? 'need-more' : null);
}

/** Width, height and the format, from the bytes alone (never the file name). */
export function parseImageHeader(b: Uint8Array): HeaderResult {
  if (b.length < 4) return 'need-more';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return typed(jpeg(b), 'image/jpeg');
  if (b[0] === 0x89 && tag(b, 0).slice(1) === 'PNG')
    return b.length < 24 ? 'need-more' : typed(dimensions(u32be(b, 16), u32be(b, 20)), 'image/png');
  if (tag(b, 0) === 'GIF8')
    return b.length < 10 ? 'need-more' : typed(dimensions(u16le(b, 6), u16le(b, 8)), 'image/gif');
  if (b[0] === 0x42 && b[1] === 0x4d)
    return b.length < 26 ? 'need-more' : typed(dimensions(i32le(b, 18), Math.abs(i32le(b, 22))), 'image/bmp');
  const netpbmType = NETPBM_TYPES[String.fromCharCode(b[0]!, b[1]!)];
  if (netpbmType && (b[2] === 0x20 || (b[2]! >= 0x09 && b[2]! <= 0x0d) || b[2] === 0x23))
    return typed(netpbm(b), netpbmType);
  if (b.length < 12) return 'need-more';
  if (tag(b, 0) === 'RIFF' && tag(b, 8) === 'WEBP') return typed(webp(b), 'image/webp');
  if (tag(b, 4) === 'ftyp') return typed(avif(b), 'image/avif');
  return null;
}

/**
 * Reads `stream` only as far as the header needs, then cancels it. A stream that fails part-way (a
 * deliberately cut deflate window) still yields what arrived before the failure. `need-more` means
 * the stream ended or hit `limit` before the header was complete.
 */
export async function readImageHeader(
  stream: ReadableStream<Uint8Array>,
  limit = HEADER_SCAN_LIMIT,
): Promise<HeaderResult> {
  const reader = stream.getReader();
  let buffer = new Uint8Array(0);
  try {
    while (buffer.length < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      const joined = new Uint8Array(buffer.length + value.length);
      joined.set(buffer);
      joined.set(value, buffer.length);
      buffer = joined;
      const result = parseImageHeader(buffer);
      if (result !== 'need-more') return result;
    }
  } catch {
    // fall through: parse what arrived
  } finally {
    await reader.cancel().catch(() => {});
  }
  return parseImageHeader(buffer);
}

export async function readImageDimensions(
  stream: ReadableStream<Uint8Array>,
  limit = HEADER_SCAN_LIMIT,
): Promise<ImageDimensions | null> {
  const result = await readImageHeader(stream, limit);
  return result === 'need-more' ? null : result;
}
