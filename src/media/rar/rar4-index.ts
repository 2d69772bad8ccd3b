/**
 * Lists a RAR 1.5–4.x archive by walking its blocks (rarlab's RAR 4 technote, unrar arcread.cpp
 * ReadHeader15): 7-byte base header { CRC16, type, flags, size }, a 32-bit data size when flag 0x8000
 * is set, and a header CRC that is the low 16 bits of CRC32 over the header from the type byte on.
 */
import { BookAnalysisError } from '../errors';
import { ByteCursor, damagedHeaders } from './byte-cursor';
import { crc32 } from '../crc32';
import type { RarArchiveIndex, RarEntry } from './rar-entry';
import { encryptedArchive, MAX_ENTRIES, multiVolumeArchive, tooManyEntries, truncatedArchive } from './rar-errors';
import { decodeRar4Name } from './rar4-names';
import type { SignatureMatch } from './signature';
import type { WindowedReader } from './windowed-reader';

const HEAD_MAIN = 0x73;
const HEAD_FILE = 0x74;
const HEAD_AV = 0x76;
const HEAD_SIGN = 0x79;
const HEAD_SERVICE = 0x7a;
const HEAD_END = 0x7b;

const LONG_BLOCK = 0x8000;
const MHD_VOLUME = 0x0001;
const MHD_SOLID = 0x0008;
const MHD_PASSWORD = 0x0080;
const LHD_SPLIT_BEFORE = 0x0001;
const LHD_SPLIT_AFTER = 0x0002;
const LHD_PASSWORD = 0x0004;
const LHD_SOLID = 0x0010;
const LHD_WINDOWMASK = 0x00e0;
const LHD_DIRECTORY = 0x00e0;
const LHD_LARGE = 0x0100;
const LHD_UNICODE = 0x0200;
const EARC_NEXT_VOLUME = 0x0001;

/** File header fields before the name: 7 base + 25. */
const FILE_HEAD_FIXED = 32;

interface Rar4Block {
  offset: number;
  type: number;
  flags: number;
  header: Uint8Array;
  dataSize: number;
}

const blockEnd = (block: Rar4Block) => block.offset + block.header.length + block.dataSize;

async function readBlock(w: WindowedReader, offset: number): Promise<Rar4Block> {
  const base = await w.upTo(offset, 7);
  if (base.length < 7) throw truncatedArchive();
  const cursor = new ByteCursor(base);
  const expectedCrc = cursor.u16();
  const type = cursor.u8();
  const flags = cursor.u16();
  const size = cursor.u16();
  if (size < 7) throw damagedHeaders('impossible header size');
  if (offset + size > w.size) throw truncatedArchive();
  const header = await w.bytes(offset, size);
  // Old authenticity and signature blocks never carried a valid CRC (unrar skips the check too).
  if (type !== HEAD_AV && type !== HEAD_SIGN && (crc32(header.subarray(2)) & 0xffff) !== expectedCrc) {
    throw new BookAnalysisError('corrupt', "The RAR archive's headers are damaged (header checksum mismatch)");
  }
  let dataSize = 0;
  const fields = new ByteCursor(header, 7);
  if (type === HEAD_FILE || type === HEAD_SERVICE) {
    if (size < FILE_HEAD_FIXED) throw damagedHeaders('file header too short');
    const low = fields.u32();
    const high = flags & LHD_LARGE ? new ByteCursor(header, FILE_HEAD_FIXED).u32() : 0;
    dataSize = high * 2 ** 32 + low;
  } else if (flags & LONG_BLOCK) {
    dataSize = fields.u32();
  }
  return { offset, type, flags, header, dataSize };
}

function parseFileHeader(block: Rar4Block): RarEntry {
  const fields = new ByteCursor(block.header, 7);
  const packedLow = fields.u32();
  const unpackedLow = fields.u32();
  const hostOs = fields.u8();
  const crc = fields.u32();
  fields.u32(); // DOS time
  const unpackVersion = fields.u8();
  const method = fields.u8() - 0x30;
  const nameSize = fields.u16();
  fields.u32(); // attributes
  const large = (block.flags & LHD_LARGE) !== 0;
  const packedHigh = large ? fields.u32() : 0;
  const unpackedHigh = large ? fields.u32() : 0;
  // unrar treats `\` as a path separator in RAR4 names whatever the host (Unix rar writes it too).
  const name = decodeRar4Name(fields.bytesOf(nameSize), (block.flags & LHD_UNICODE) !== 0).replaceAll('\\', '/');
  const directory = (block.flags & LHD_WINDOWMASK) === LHD_DIRECTORY;
  if (method < 0 || method > 5) throw damagedHeaders('unknown compression method');
  return {
    name: name.replace(/^\/+/, ''),
    headerOffset: block.offset,
    dataOffset: block.offset + block.header.length,
    packedSize: packedHigh * 2 ** 32 + packedLow,
    unpackedSize: unpackedHigh * 2 ** 32 + unpackedLow,
    crc32: crc,
    method,
    unpackVersion,
    dictionarySize: directory ? 0 : 0x10000 << ((block.flags & LHD_WINDOWMASK) >> 5),
    solid: (block.flags & LHD_SOLID) !== 0,
    directory,
    encrypted: (block.flags & LHD_PASSWORD) !== 0,
    split: (block.flags & (LHD_SPLIT_BEFORE | LHD_SPLIT_AFTER)) !== 0,
    redirect: false,
    hostOs,
  };
}

export async function readRar4Index(w: WindowedReader, signature: SignatureMatch): Promise<RarArchiveIndex> {
  const main = await readBlock(w, signature.headersStart);
  if (main.type !== HEAD_MAIN) {
    throw new BookAnalysisError('corrupt', "The RAR archive's headers are damaged (no main header)");
  }
  if (main.flags & MHD_PASSWORD) throw encryptedArchive();
  if (main.flags & MHD_VOLUME) throw multiVolumeArchive();

  const entries: RarEntry[] = [];
  // Every block is at least 7 bytes, so the walk ends within size / 7 steps.
  for (let offset = blockEnd(main); offset < w.size; ) {
    const block = await readBlock(w, offset);
    const end = blockEnd(block);
    if (end > w.size) throw truncatedArchive();
    if (block.type === HEAD_END) {
      if (block.flags & EARC_NEXT_VOLUME) throw multiVolumeArchive();
      break;
    }
    if (block.type === HEAD_FILE) {
      if (entries.length >= MAX_ENTRIES) throw tooManyEntries(MAX_ENTRIES);
      entries.push(parseFileHeader(block));
    }
    offset = end;
  }
  return {
    format: 4,
    signatureOffset: signature.offset,
    solid: (main.flags & MHD_SOLID) !== 0,
    entries,
    source: 'header-walk',
  };
}
