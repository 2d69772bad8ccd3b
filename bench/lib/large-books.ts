/**
 * Writes large comic books to disk for the analysis benchmarks, without holding a CBZ in memory:
 *
 *   node --import tsx bench/lib/large-books.ts cbz <file> <MiB>
 *   node --import tsx bench/lib/large-books.ts cbr <file> <MiB>
 *
 * Pages are real JPEGs made with sharp (eight distinct noisy 1600×2400 scans of ~2 MiB, repeated),
 * stored uncompressed as comic archives are; a ComicInfo.xml closes the archive. The CBZ is streamed
 * (local headers, data, central directory); the CBR comes from the stored-RAR5 test writer
 * (test/fixtures/rar-writer.ts), which builds the archive in this process's memory before writing it.
 * Prints `{ file, bytes, pages }` as JSON.
 */
import { closeSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { comicInfoXml } from '../../test/fixtures/comic-info';
import { writeRar5 } from '../../test/fixtures/rar-writer';

const DISTINCT_PAGES = 8;

async function scanPage(seed: number): Promise<Uint8Array> {
  const width = 1600;
  const height = 2400;
  const raw = Buffer.alloc(width * height * 3);
  let state = seed * 2654435761;
  for (let i = 0; i < raw.length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    // Paper tone with heavy grain: JPEG cannot squeeze it much, so pages weigh what scans weigh.
    raw[i] = 200 + ((state >>> 16) % 56);
  }
  return new Uint8Array(
    await sharp(raw, { raw: { width, height, channels: 3 } })
      .jpeg({ quality: 82 })
      .toBuffer(),
  );
}

function comicInfo(pages: number): Uint8Array {
  return comicInfoXml({
    Series: 'Benchmark Omnibus',
    Title: 'The Heavy Volume',
    Number: '1',
    Writer: 'A. Writer',
    Publisher: 'Bench Press',
    Year: '2024',
    Genre: 'Action, Drama',
    PageCount: String(pages),
  });
}

function u16(value: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(value);
  return b;
}

function u32(value: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(value >>> 0);
  return b;
}

/** Stored ZIP written entry by entry; offsets stay below 4 GiB, so no ZIP64 records are needed. */
function writeCbz(file: string, entries: Array<{ name: string; data: Uint8Array }>): number {
  const fd = openSync(file, 'w');
  const central: Buffer[] = [];
  let offset = 0;
  const write = (chunk: Uint8Array) => {
    writeSync(fd, chunk);
    offset += chunk.length;
  };
  try {
    for (const entry of entries) {
      const name = Buffer.from(entry.name, 'utf8');
      const crc = crc32(entry.data);
      const common = [u16(20), u16(0x0800), u16(0), u16(0x5a21), u16(0x5a21), u32(crc)];
      const sizes = [u32(entry.data.length), u32(entry.data.length), u16(name.length), u16(0)];
      const headerAt = offset;
      write(Buffer.concat([u32(0x04034b50), ...common, ...sizes, name]));
      write(entry.data);
      central.push(
        Buffer.concat([
          u32(0x02014b50),
          u16(20),
          ...common,
          ...sizes,
          u16(0),
          u16(0),
          u16(0),
          u32(0),
          u32(headerAt),
          name,
        ]),
      );
    }
    const directory = Buffer.concat(central);
    const directoryAt = offset;
    write(directory);
    write(
      Buffer.concat([
        u32(0x06054b50),
        u16(0),
        u16(0),
        u16(entries.length),
        u16(entries.length),
        u32(directory.length),
        u32(directoryAt),
        u16(0),
      ]),
    );
  } finally {
    closeSync(fd);
  }
  return offset;
}

async function main() {
  const [format, file, mib] = process.argv.slice(2);
  if ((format !== 'cbz' && format !== 'cbr') || !file || !mib) {
    throw new Error('usage: large-books.ts cbz|cbr <file> <MiB>');
  }
  const target = Number(mib) * 1024 * 1024;
  const distinct = await Promise.all(Array.from({ length: DISTINCT_PAGES }, (_, i) => scanPage(i + 1)));
  const average = distinct.reduce((n, p) => n + p.length, 0) / distinct.length;
  const pageCount = Math.max(1, Math.round(target / average));
  const entries = Array.from({ length: pageCount }, (_, i) => ({
    name: `Heavy Volume/page-${String(i + 1).padStart(4, '0')}.jpg`,
    data: distinct[i % DISTINCT_PAGES] as Uint8Array,
  }));
  entries.push({ name: 'ComicInfo.xml', data: comicInfo(pageCount) });
  let bytes: number;
  if (format === 'cbz') bytes = writeCbz(file, entries);
  else {
    const archive = writeRar5(entries);
    writeFileSync(file, archive);
    bytes = archive.length;
  }
  console.log(JSON.stringify({ file, bytes, pages: pageCount }));
}

await main();
