/**
 * Book files for library tests, generated in code: solid-colour PNG pages (a real PNG encoder over
 * CompressionStream) packed into CBZs with an optional ComicInfo.xml, and helpers to put them in R2.
 */
import { env } from 'cloudflare:test';
import { zipSync } from 'fflate';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const b of bytes) crc = (CRC_TABLE[(crc ^ b) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

async function deflate(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A width×height RGB PNG filled with one colour (a diagonal stripe keeps it from being trivial). */
export async function pngPage(
  width: number,
  height: number,
  rgb: [number, number, number] = [200, 40, 40],
): Promise<Uint8Array> {
  const raw = new Uint8Array((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1);
    for (let x = 0; x < width; x++) {
      const stripe = Math.abs(x - y) < 3;
      raw.set(stripe ? [0, 0, 0] : rgb, row + 1 + x * 3);
    }
  }
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, width);
  view.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', await deflate(raw)),
    chunk('IEND', new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

export interface ComicInfo {
  Series?: string;
  Title?: string;
  Number?: string;
  Volume?: number;
  Summary?: string;
  Publisher?: string;
  Year?: number;
  Writer?: string;
  Penciller?: string;
  Inker?: string;
  Colorist?: string;
  Letterer?: string;
  CoverArtist?: string;
  Editor?: string;
  Translator?: string;
  Genre?: string;
  Tags?: string;
  Manga?: string;
  LanguageISO?: string;
  Imprint?: string;
  Characters?: string;
  Teams?: string;
  Web?: string;
  Count?: number;
  GTIN?: string;
  StoryArc?: string;
  StoryArcNumber?: string;
  AgeRating?: string;
}

export function comicInfoXml(info: ComicInfo): string {
  const fields = Object.entries(info)
    .map(([key, value]) => `  <${key}>${String(value).replace(/&/g, '&amp;').replace(/</g, '&lt;')}</${key}>`)
    .join('\n');
  return `<?xml version="1.0" encoding="utf-8"?>\n<ComicInfo>\n${fields}\n</ComicInfo>\n`;
}

/** A CBZ of `pages` PNG pages named 1.png … n.png (stored, like most real CBZs), plus ComicInfo. */
export async function makeCbz(pages: number, info?: ComicInfo, size: [number, number] = [60, 90]): Promise<Uint8Array> {
  const files: Record<string, [Uint8Array, { level: 0 }]> = {};
  for (let i = 1; i <= pages; i++) {
    files[`${i}.png`] = [await pngPage(size[0], size[1], [(i * 40) % 256, 120, 200]), { level: 0 }];
  }
  if (info) files['ComicInfo.xml'] = [new TextEncoder().encode(comicInfoXml(info)), { level: 0 }];
  return zipSync(files);
}

export async function putObject(key: string, bytes: Uint8Array | string): Promise<void> {
  await env.LIBRARY.put(key, bytes);
}
