/**
 * RAR 5.0 block headers (rarlab's "RAR 5.0 archive format" technote): parsing one block from its bytes.
 * Every block starts with CRC32 + vint header size; the CRC covers the header from the size field on.
 */
import { BookAnalysisError } from '../errors';
import { ByteCursor, damagedHeaders } from './byte-cursor';
import { crc32 } from '../crc32';
import type { RarEntry } from './rar-entry';

/** unrar's MAX_HEADER_SIZE_RAR5: no valid header is larger. */
export const MAX_HEADER_SIZE = 2 * 1024 * 1024;

export const HEAD_MAIN = 1;
export const HEAD_FILE = 2;
export const HEAD_SERVICE = 3;
export const HEAD_CRYPT = 4;
export const HEAD_END = 5;

const HFL_EXTRA = 0x0001;
const HFL_DATA = 0x0002;
const HFL_SPLITBEFORE = 0x0008;
const HFL_SPLITAFTER = 0x0010;

export const MHFL_VOLUME = 0x0001;
const MHFL_VOLNUMBER = 0x0002;
export const MHFL_SOLID = 0x0004;
export const EHFL_NEXTVOLUME = 0x0001;

const FHFL_DIRECTORY = 0x0001;
const FHFL_UTIME = 0x0002;
const FHFL_CRC32 = 0x0004;

const MHEXTRA_LOCATOR = 0x01;
const LOCATOR_QOPEN = 0x0001;
const FHEXTRA_CRYPT = 0x01;
const FHEXTRA_REDIR = 0x05;

export interface Rar5Block {
  offset: number;
  /** Bytes of the header block (CRC, size field and header). */
  headerLength: number;
  type: number;
  flags: number;
  dataSize: number;
  /** The whole header block, for re-use (quick-open cache, tests). */
  raw: Uint8Array;
  /** Where the type-specific fields begin and where the extra area begins, inside `raw`. */
  bodyStart: number;
  extraStart: number;
}

export const blockEnd = (block: Rar5Block) => block.offset + block.headerLength + block.dataSize;

const bodyOf = (block: Rar5Block) => new ByteCursor(block.raw, block.bodyStart, block.extraStart);

/** Size of the header block at the start of `bytes` (needs up to 7 bytes), validated against the cap. */
export function rar5HeaderLength(bytes: Uint8Array): number {
  const cursor = new ByteCursor(bytes, 4);
  const size = cursor.vint();
  if (size < 2 || size > MAX_HEADER_SIZE) throw damagedHeaders('impossible header size');
  return cursor.position + size;
}

/** Parses the block whose header bytes are exactly `raw`, found at archive offset `offset`. */
export function parseRar5Block(raw: Uint8Array, offset: number): Rar5Block {
  const cursor = new ByteCursor(raw);
  const expectedCrc = cursor.u32();
  if (crc32(raw.subarray(4)) !== expectedCrc) {
    throw new BookAnalysisError('corrupt', "The RAR archive's headers are damaged (header checksum mismatch)");
  }
  cursor.vint();
  const type = cursor.vint();
  const flags = cursor.vint();
  const extraSize = flags & HFL_EXTRA ? cursor.vint() : 0;
  const dataSize = flags & HFL_DATA ? cursor.vint() : 0;
  const extraStart = raw.length - extraSize;
  if (extraStart < cursor.position) throw damagedHeaders('extra area larger than its header');
  return {
    offset,
    headerLength: raw.length,
    type,
    flags,
    dataSize,
    raw,
    bodyStart: cursor.position,
    extraStart,
  };
}

/** Each extra record: vint size (from the type on), vint type, data. */
function* extraRecords(block: Rar5Block): Generator<{ type: number; data: ByteCursor }> {
  const cursor = new ByteCursor(block.raw, block.extraStart);
  while (cursor.remaining > 0) {
    const size = cursor.vint();
    const start = cursor.position;
    if (size === 0 || size > cursor.remaining) throw damagedHeaders('extra record larger than its header');
    const type = cursor.vint();
    yield { type, data: new ByteCursor(block.raw, cursor.position, start + size) };
    cursor.position = start + size;
  }
}

export interface Rar5MainHeader {
  volume: boolean;
  solid: boolean;
  /** Distance from the main header to the quick-open service block, 0 when absent. */
  quickOpenOffset: number;
}

export function parseMainHeader(block: Rar5Block): Rar5MainHeader {
  const body = bodyOf(block);
  const archiveFlags = body.vint();
  if (archiveFlags & MHFL_VOLNUMBER) body.vint();
  let quickOpenOffset = 0;
  for (const record of extraRecords(block)) {
    if (record.type !== MHEXTRA_LOCATOR) continue;
    const locatorFlags = record.data.vint();
    if (locatorFlags & LOCATOR_QOPEN) quickOpenOffset = record.data.vint();
  }
  return {
    volume: (archiveFlags & MHFL_VOLUME) !== 0,
    solid: (archiveFlags & MHFL_SOLID) !== 0,
    quickOpenOffset,
  };
}

const decoder = new TextDecoder('utf-8');

/** File and service headers share one layout; service headers (CMT, QO, RR…) are not entries. */
export function parseFileHeader(block: Rar5Block): RarEntry {
  const body = bodyOf(block);
  const fileFlags = body.vint();
  const unpackedSize = body.vint();
  body.vint(); // attributes
  if (fileFlags & FHFL_UTIME) body.u32();
  const crc = fileFlags & FHFL_CRC32 ? body.u32() : null;
  const compression = body.vint();
  const hostOs = body.vint();
  const nameLength = body.vint();
  const name = decoder.decode(body.bytesOf(nameLength));
  let encrypted = false;
  let redirect = false;
  for (const record of extraRecords(block)) {
    if (record.type === FHEXTRA_CRYPT) encrypted = true;
    if (record.type === FHEXTRA_REDIR) redirect = true;
  }
  const directory = (fileFlags & FHFL_DIRECTORY) !== 0;
  return {
    name: name.replace(/^\/+/, ''),
    headerOffset: block.offset,
    dataOffset: block.offset + block.headerLength,
    packedSize: block.dataSize,
    unpackedSize,
    crc32: crc,
    method: (compression >> 7) & 7,
    unpackVersion: compression & 0x3f,
    dictionarySize: directory ? 0 : 0x20000 * 2 ** ((compression >> 10) & 0xf),
    solid: (compression & 0x40) !== 0,
    directory,
    encrypted,
    split: (block.flags & (HFL_SPLITBEFORE | HFL_SPLITAFTER)) !== 0,
    redirect,
    hostOs,
  };
}

export function endHeaderSaysMoreVolumes(block: Rar5Block): boolean {
  return (bodyOf(block).vint() & EHFL_NEXTVOLUME) !== 0;
}
