/**
 * Lists a RAR5 archive. When the main header locates a quick-open record (rar 5+ writes one near the
 * end), its cached copies of the file headers give the whole listing in about three reads; headers it
 * does not cache, or any archive without one, are read one small range read per header.
 */
import { ByteCursor } from './byte-cursor';
import { crc32 } from '../crc32';
import { BookAnalysisError } from '../errors';
import type { RarArchiveIndex, RarEntry } from './rar-entry';
import { encryptedArchive, MAX_ENTRIES, multiVolumeArchive, tooManyEntries, truncatedArchive } from './rar-errors';
import {
  blockEnd,
  endHeaderSaysMoreVolumes,
  HEAD_CRYPT,
  HEAD_END,
  HEAD_FILE,
  HEAD_MAIN,
  HEAD_SERVICE,
  MAX_HEADER_SIZE,
  parseFileHeader,
  parseMainHeader,
  parseRar5Block,
  type Rar5Block,
  rar5HeaderLength,
} from './rar5-headers';
import type { SignatureMatch } from './signature';
import type { WindowedReader } from './windowed-reader';

/** Largest quick-open record read; rar writes ~100 bytes per entry, so this covers MAX_ENTRIES. */
const MAX_QUICK_OPEN_SIZE = 16 * 1024 * 1024;
/** Smallest block: CRC32, 1-byte size, type and flags. */
const MIN_BLOCK = 7;

async function readBlock(w: WindowedReader, offset: number): Promise<Rar5Block> {
  const head = await w.upTo(offset, MIN_BLOCK + 2);
  if (head.length < MIN_BLOCK) throw truncatedArchive();
  const length = rar5HeaderLength(head);
  if (offset + length > w.size) throw truncatedArchive();
  return parseRar5Block(await w.bytes(offset, length), offset);
}

interface QuickOpen {
  /** Offset of the quick-open service block: every file header lies before it. */
  offset: number;
  /** Cached header blocks by the archive offset they mirror. */
  headers: Map<number, Uint8Array>;
}

/**
 * The quick-open record (unrar qopen.cpp): a stored service block `QO` whose data is a run of
 * { CRC32, vint size, vint flags, vint distance back from the QO block, vint header size, header }.
 * It is only a shortcut, so anything unexpected returns null and the caller walks the headers.
 */
async function loadQuickOpen(w: WindowedReader, offset: number): Promise<QuickOpen | null> {
  if (offset + MIN_BLOCK > w.size) return null;
  const block = await readBlock(w, offset);
  if (block.type !== HEAD_SERVICE) return null;
  const service = parseFileHeader(block);
  const usable = service.name === 'QO' && service.method === 0 && !service.encrypted && !service.split;
  if (!usable || service.packedSize > MAX_QUICK_OPEN_SIZE || blockEnd(block) > w.size) return null;
  const data = await w.bytes(service.dataOffset, service.packedSize);
  if (service.crc32 !== null && crc32(data) !== service.crc32) return null;
  const headers = new Map<number, Uint8Array>();
  const cursor = new ByteCursor(data);
  while (cursor.remaining > 0) {
    const expectedCrc = cursor.u32();
    const sizeStart = cursor.position;
    const size = cursor.vint();
    const recordEnd = cursor.position + size;
    if (size === 0 || recordEnd > data.length) return null;
    if (crc32(data.subarray(sizeStart, recordEnd)) !== expectedCrc) return null;
    const record = new ByteCursor(data, cursor.position, recordEnd);
    record.vint(); // flags
    const distance = record.vint();
    const headerSize = record.vint();
    if (headerSize > MAX_HEADER_SIZE) return null;
    headers.set(offset - distance, record.bytesOf(headerSize));
    cursor.position = recordEnd;
  }
  return { offset, headers };
}

/** A cached header is used only when it parses; a stale or damaged copy falls back to the file. */
function cachedBlock(quickOpen: QuickOpen | null, offset: number): Rar5Block | null {
  const raw = quickOpen?.headers.get(offset);
  if (!raw) return null;
  try {
    return rar5HeaderLength(raw) === raw.length ? parseRar5Block(raw, offset) : null;
  } catch {
    return null;
  }
}

export async function readRar5Index(w: WindowedReader, signature: SignatureMatch): Promise<RarArchiveIndex> {
  const main = await readBlock(w, signature.headersStart);
  if (main.type === HEAD_CRYPT) throw encryptedArchive();
  if (main.type !== HEAD_MAIN) {
    throw new BookAnalysisError('corrupt', "The RAR archive's headers are damaged (no main header)");
  }
  const mainHeader = parseMainHeader(main);
  if (mainHeader.volume) throw multiVolumeArchive();
  // A quick-open record always follows the file headers; one that claims otherwise is ignored.
  const quickOpenOffset = main.offset + mainHeader.quickOpenOffset;
  const quickOpen = quickOpenOffset > blockEnd(main) ? await loadQuickOpen(w, quickOpenOffset).catch(() => null) : null;
  const stopAt = quickOpen?.offset ?? w.size;

  const entries: RarEntry[] = [];
  let allCached = quickOpen !== null;
  // Every block is at least MIN_BLOCK bytes, so the walk ends within size / MIN_BLOCK steps.
  for (let offset = blockEnd(main); offset < stopAt; ) {
    let block = cachedBlock(quickOpen, offset);
    if (!block) {
      block = await readBlock(w, offset);
      allCached = false;
    }
    const end = blockEnd(block);
    if (end > w.size) throw truncatedArchive();
    if (block.type === HEAD_END) {
      if (endHeaderSaysMoreVolumes(block)) throw multiVolumeArchive();
      break;
    }
    if (block.type === HEAD_CRYPT) throw encryptedArchive();
    if (block.type === HEAD_FILE) {
      if (entries.length >= MAX_ENTRIES) throw tooManyEntries(MAX_ENTRIES);
      entries.push(parseFileHeader(block));
    }
    offset = end;
  }
  return {
    format: 5,
    signatureOffset: signature.offset,
    solid: mainHeader.solid,
    entries,
    source: allCached ? 'quick-open' : 'header-walk',
  };
}
