/**
 * The ZIP central directory over range reads: one tail read finds the end-of-central-directory
 * record (ZIP64 aware) and, for typical comics, the whole directory too; a larger directory costs one
 * more read of exactly its size. Local headers are never visited here.
 */
import { BookAnalysisError, truncatedError } from '../errors';
import type { RangeReader } from '../range-reader';
import { crc32 } from '../crc32';
import { decodeEntryName, normalizeEntryName } from './file-names';

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  crc32: number;
  compressedSize: number;
  size: number;
  /** Offset of the entry's local header (prefix data before the archive already accounted for). */
  offset: number;
  /** Local header length guess: 30 + name + central extra (local extras usually match). */
  headerHint: number;
  encrypted: boolean;
  directory: boolean;
}

export interface ZipDirectory {
  entries: ZipEntry[];
  /** Bytes before the first local header (self-extractor stubs); already added to entry offsets. */
  prefix: number;
}

const EOCD_SIG = 0x06054b50;
const ZIP64_LOCATOR_SIG = 0x07064b50;
const ZIP64_EOCD_SIG = 0x06064b50;
const CENTRAL_SIG = 0x02014b50;
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;
/** Covers EOCD + directory of a few hundred pages in the first read. */
const TAIL_READ = 64 * 1024;
/** A directory larger than this is not a book (about 300,000 entries). */
const MAX_DIRECTORY = 32 * 1024 * 1024;

const corrupt = (what: string) => new BookAnalysisError('corrupt', `The ZIP archive is damaged: ${what}`);

const u16 = (v: DataView, i: number) => v.getUint16(i, true);
const u32 = (v: DataView, i: number) => v.getUint32(i, true);
const u64 = (v: DataView, i: number) => {
  const value = v.getUint32(i, true) + v.getUint32(i + 4, true) * 2 ** 32;
  if (!Number.isSafeInteger(value)) throw corrupt('a ZIP64 size is out of range');
  return value;
};
const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength);

function findEocd(tail: DataView): number {
  for (let i = tail.byteLength - EOCD_SIZE; i >= 0; i--) {
    // The comment length must reach exactly to the end, which rules out a signature inside the comment.
    if (u32(tail, i) === EOCD_SIG && i + EOCD_SIZE + u16(tail, i + 20) === tail.byteLength) return i;
  }
  for (let i = tail.byteLength - EOCD_SIZE; i >= 0; i--) {
    if (u32(tail, i) === EOCD_SIG) return i; // junk appended after the archive
  }
  return -1;
}

interface DirectoryLocation {
  count: number;
  size: number;
  offset: number;
  /** Absolute position where the directory must end (start of the ZIP64 record or the EOCD). */
  end: number;
}

async function locateDirectory(
  reader: RangeReader,
): Promise<{ location: DirectoryLocation; tail: Uint8Array; tailStart: number }> {
  if (reader.size < EOCD_SIZE) throw truncatedError();
  let tailStart = Math.max(0, reader.size - TAIL_READ);
  let tail = await reader.read(tailStart, reader.size - tailStart);
  let at = findEocd(view(tail));
  if (at < 0 && tailStart > 0) {
    tailStart = Math.max(0, reader.size - (EOCD_SIZE + MAX_COMMENT));
    tail = await reader.read(tailStart, reader.size - tailStart);
    at = findEocd(view(tail));
  }
  // A ZIP that starts correctly but has no end record was cut short (interrupted copy or download).
  if (at < 0) throw truncatedError();
  const eocd = view(tail);
  if (u16(eocd, at + 4) !== 0 && u16(eocd, at + 4) !== 0xffff) {
    throw new BookAnalysisError('multi_volume', 'The archive is split into several volumes; join it into one file');
  }
  let location: DirectoryLocation = {
    count: u16(eocd, at + 10),
    size: u32(eocd, at + 12),
    offset: u32(eocd, at + 16),
    end: tailStart + at,
  };
  const locatorAt = at - 20;
  if (locatorAt >= 0 && u32(eocd, locatorAt) === ZIP64_LOCATOR_SIG) {
    const recordOffset = u64(eocd, locatorAt + 8);
    const record =
      recordOffset >= tailStart && recordOffset + 56 <= tailStart + tail.length
        ? tail.subarray(recordOffset - tailStart, recordOffset - tailStart + 56)
        : recordOffset + 56 <= reader.size
          ? await reader.read(recordOffset, 56)
          : null;
    if (!record) throw corrupt('the ZIP64 end record is missing');
    const z = view(record);
    if (u32(z, 0) !== ZIP64_EOCD_SIG) throw corrupt('the ZIP64 end record is missing');
    location = { count: u64(z, 32), size: u64(z, 40), offset: u64(z, 48), end: recordOffset };
  }
  return { location, tail, tailStart };
}

function extraFields(extra: Uint8Array): Map<number, Uint8Array> {
  const fields = new Map<number, Uint8Array>();
  const v = view(extra);
  for (let i = 0; i + 4 <= extra.length; ) {
    const id = u16(v, i);
    const length = u16(v, i + 2);
    if (i + 4 + length > extra.length) break;
    fields.set(id, extra.subarray(i + 4, i + 4 + length));
    i += 4 + length;
  }
  return fields;
}

function parseEntries(directory: Uint8Array, count: number, bias: number): ZipEntry[] {
  const v = view(directory);
  const entries: ZipEntry[] = [];
  let i = 0;
  // The EOCD count is 16-bit without ZIP64; walk records until the directory ends rather than trusting it.
  while (i + 46 <= directory.length && u32(v, i) === CENTRAL_SIG) {
    const flags = u16(v, i + 8);
    const nameLength = u16(v, i + 28);
    const extraLength = u16(v, i + 30);
    const commentLength = u16(v, i + 32);
    const next = i + 46 + nameLength + extraLength + commentLength;
    if (next > directory.length) throw corrupt('a directory record runs past the directory');
    const rawName = directory.subarray(i + 46, i + 46 + nameLength);
    const extras = extraFields(directory.subarray(i + 46 + nameLength, i + 46 + nameLength + extraLength));
    let size = u32(v, i + 24);
    let compressedSize = u32(v, i + 20);
    let offset = u32(v, i + 42);
    const zip64 = extras.get(0x0001);
    if (zip64) {
      const z = view(zip64);
      let at = 0;
      const take = () => {
        if (at + 8 > zip64.length) throw corrupt('a ZIP64 extra field is too short');
        const value = u64(z, at);
        at += 8;
        return value;
      };
      if (size === 0xffffffff) size = take();
      if (compressedSize === 0xffffffff) compressedSize = take();
      if (offset === 0xffffffff) offset = take();
    }
    const unicode = extras.get(0x7075);
    const unicodePath =
      unicode && unicode.length > 5 && unicode[0] === 1 && view(unicode).getUint32(1, true) === crc32(rawName)
        ? unicode.subarray(5)
        : null;
    const name = normalizeEntryName(decodeEntryName(rawName, (flags & 0x0800) !== 0, unicodePath));
    const method = u16(v, i + 10);
    entries.push({
      name,
      method,
      flags,
      crc32: u32(v, i + 16),
      compressedSize,
      size,
      offset: offset + bias,
      headerHint: 30 + nameLength + extraLength,
      encrypted: (flags & 0x0001) !== 0 || method === 99,
      directory: name.endsWith('/') || (size === 0 && rawName[rawName.length - 1] === 0x5c),
    });
    i = next;
  }
  if (entries.length < count && count !== 0xffff) throw corrupt('the directory is incomplete');
  return entries;
}

export async function readZipDirectory(reader: RangeReader): Promise<ZipDirectory> {
  const { location, tail, tailStart } = await locateDirectory(reader);
  if (location.size > MAX_DIRECTORY) {
    throw new BookAnalysisError('too_large', 'The archive lists too many files to be a book');
  }
  // Where the directory really is: right before its end record. A difference from the stated offset
  // is data prepended to the archive (self-extractor stubs), and shifts every local header too.
  const start = location.end - location.size;
  if (start < 0) throw corrupt('the directory size is larger than the file');
  const bias = start - location.offset;
  if (bias < 0) throw corrupt('the directory is not where the archive says');
  const directory =
    start >= tailStart
      ? tail.subarray(start - tailStart, location.end - tailStart)
      : await reader.read(start, location.size);
  return { entries: parseEntries(directory, location.count, bias), prefix: bias };
}
