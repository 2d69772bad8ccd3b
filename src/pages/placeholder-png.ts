/**
 * A raster placeholder cover for a book without one (DECISIONS.md §Reader apps: every OPDS 2 publication
 * carries a raster image, because deployed parsers — Readium's r2-opds-js in Thorium, the Palace parser —
 * reject a publication without `images`, and an SVG is not an image type the OPDS 2 schema allows). The
 * same neutral design as the API's SVG placeholder (placeholder-cover.ts), with the initial of the
 * book's kind: C for a comic (cbz, cbr), E for an EPUB, P for a PDF.
 *
 * Written here as an indexed-colour PNG (three colours, one byte a pixel), its pixel rows deflated with
 * the platform's CompressionStream: made once per isolate and kind, about 2 KB.
 */
import { crc32 } from '../media/crc32';
import type { BookDto } from '../schemas/book.schema';

type FileFormat = BookDto['fileFormat'];

export const PLACEHOLDER_PNG_WIDTH = 400;
export const PLACEHOLDER_PNG_HEIGHT = 600;
export const PLACEHOLDER_PNG_ETAG_PREFIX = 'longbox-placeholder-png-v1';

/** Background, frame and letter: the SVG placeholder's colours. */
const PALETTE = [
  [0xd9, 0xd6, 0xd0],
  [0xb3, 0xae, 0xa5],
  [0x8f, 0x89, 0x7f],
] as const;
const [BACKGROUND, FRAME, LETTER] = [0, 1, 2];

/** 5×7 letters, one string a row (`#` = ink). */
const GLYPHS = {
  C: ['.###.', '#...#', '#....', '#....', '#....', '#...#', '.###.'],
  E: ['#####', '#....', '#....', '####.', '#....', '#....', '#####'],
  P: ['####.', '#...#', '#...#', '####.', '#....', '#....', '#....'],
} as const;

export const INITIAL_OF_FORMAT: Record<FileFormat, keyof typeof GLYPHS> = {
  cbz: 'C',
  cbr: 'C',
  epub: 'E',
  pdf: 'P',
};

function pixels(glyph: readonly string[]): Uint8Array {
  const width = PLACEHOLDER_PNG_WIDTH;
  const height = PLACEHOLDER_PNG_HEIGHT;
  const out = new Uint8Array(width * height).fill(BACKGROUND);
  const fill = (x0: number, y0: number, w: number, h: number, colour: number) => {
    for (let y = y0; y < y0 + h; y++) out.fill(colour, y * width + x0, y * width + x0 + w);
  };
  // The frame: 4 px wide, 24 px in.
  fill(24, 24, width - 48, 4, FRAME);
  fill(24, height - 28, width - 48, 4, FRAME);
  fill(24, 24, 4, height - 48, FRAME);
  fill(width - 28, 24, 4, height - 48, FRAME);
  // The letter, each dot a 24 px square, centred.
  const dot = 24;
  const left = (width - 5 * dot) / 2;
  const top = (height - 7 * dot) / 2;
  glyph.forEach((row, y) => {
    for (let x = 0; x < row.length; x++) if (row[x] === '#') fill(left + x * dot, top + y * dot, dot, dot, LETTER);
  });
  return out;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

async function deflate(data: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([data]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function encodePng(indices: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  const width = PLACEHOLDER_PNG_WIDTH;
  const height = PLACEHOLDER_PNG_HEIGHT;
  // Each row: filter type 0 (none), then its palette indices.
  const raw = new Uint8Array(height * (width + 1));
  for (let y = 0; y < height; y++) raw.set(indices.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 3, 0, 0, 0], 8); // bit depth 8, indexed colour, deflate, adaptive filtering, no interlace
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('PLTE', Uint8Array.from(PALETTE.flat())),
    chunk('IDAT', await deflate(raw)),
    chunk('IEND', new Uint8Array(0)),
  ];
  const png = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    png.set(part, at);
    at += part.length;
  }
  return png;
}

export const isPlaceholderFormat = (value: string): value is FileFormat => Object.hasOwn(INITIAL_OF_FORMAT, value);

/** One ETag a kind of book: comics share one image. */
export const placeholderEtag = (format: FileFormat) => `"${PLACEHOLDER_PNG_ETAG_PREFIX}-${INITIAL_OF_FORMAT[format]}"`;

const made = new Map<keyof typeof GLYPHS, Promise<Uint8Array<ArrayBuffer>>>();

/** The placeholder PNG for a kind of book (made on first use, then kept by the isolate). */
export function placeholderPng(format: FileFormat): Promise<Uint8Array<ArrayBuffer>> {
  const initial = INITIAL_OF_FORMAT[format];
  let png = made.get(initial);
  if (!png) {
    png = encodePng(pixels(GLYPHS[initial]));
    made.set(initial, png);
    png.catch(() => made.delete(initial));
  }
  return png;
}
