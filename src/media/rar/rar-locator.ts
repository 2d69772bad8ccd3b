/**
 * The JSON a CBR stores per page (book_pages.locator) and per book (books.container_index): every
 * field serving needs, so a page costs no header read. A solid book's container index lists its
 * compressed entries once; a page's locator then names the slice of that list unrar must run through.
 */
import type { JsonValue, PageLocator } from '../container';
import { BookAnalysisError } from '../errors';
import type { RarEntry, RarFormat } from './rar-entry';
import type { PackedEntry } from './synthetic-archive';

export interface RarPageRef extends PackedEntry {
  name: string;
  format: RarFormat;
  /** [start, end] into the container index's packed list when decompressing needs earlier entries. */
  chain: [number, number] | null;
}

export function rarLocator(format: RarFormat, entry: RarEntry, chain: [number, number] | null): PageLocator {
  return {
    kind: 'rar',
    name: entry.name,
    format,
    offset: entry.dataOffset,
    packedSize: entry.packedSize,
    size: entry.unpackedSize,
    crc32: entry.crc32,
    method: entry.method,
    unpackVersion: entry.unpackVersion,
    dictionarySize: entry.dictionarySize,
    solid: entry.solid,
    hostOs: entry.hostOs,
    chain,
  };
}

const invalidIndex = () =>
  new BookAnalysisError('page_not_found', 'The page index of this book is not valid; analyse the book again');

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const isCrc = (value: unknown): value is number | null => value === null || (isCount(value) && value <= 0xffffffff);

export function parseRarLocator(locator: PageLocator): RarPageRef {
  const { kind, name, format, offset, packedSize, size, crc32, method, unpackVersion, dictionarySize, solid, hostOs } =
    locator;
  const chain = locator.chain ?? null;
  const valid =
    kind === 'rar' &&
    typeof name === 'string' &&
    (format === 4 || format === 5) &&
    [offset, packedSize, size, method, unpackVersion, dictionarySize, hostOs].every(isCount) &&
    isCrc(crc32) &&
    typeof solid === 'boolean' &&
    (chain === null || (Array.isArray(chain) && chain.length === 2 && chain.every(isCount) && chain[0]! <= chain[1]!));
  if (!valid) throw invalidIndex();
  return {
    name,
    format,
    dataOffset: offset,
    packedSize,
    unpackedSize: size,
    crc32,
    method,
    unpackVersion,
    dictionarySize,
    solid,
    hostOs,
    chain: chain as [number, number] | null,
  } as RarPageRef;
}

/** Compact rows, one per compressed entry: a solid book of hundreds of pages stays a few KiB. */
type PackedRow = [number, number, number, number | null, number, number, number, 0 | 1, number];

export function solidContainerIndex(format: RarFormat, packed: PackedEntry[]): JsonValue {
  const rows: PackedRow[] = packed.map((e) => [
    e.dataOffset,
    e.packedSize,
    e.unpackedSize,
    e.crc32,
    e.method,
    e.unpackVersion,
    e.dictionarySize,
    e.solid ? 1 : 0,
    e.hostOs,
  ]);
  return { kind: 'rar-solid', format, packed: rows };
}

/** The chain [start…end] from a stored container index, validated. */
export function chainFromIndex(
  containerIndex: JsonValue | null | undefined,
  [start, end]: [number, number],
): PackedEntry[] {
  if (!containerIndex || typeof containerIndex !== 'object' || Array.isArray(containerIndex)) throw invalidIndex();
  const rows = containerIndex.packed;
  if (containerIndex.kind !== 'rar-solid' || !Array.isArray(rows) || end >= rows.length) throw invalidIndex();
  return rows.slice(start, end + 1).map((row) => {
    if (!Array.isArray(row) || row.length !== 9) throw invalidIndex();
    const [dataOffset, packedSize, unpackedSize, crc32, method, unpackVersion, dictionarySize, solid, hostOs] = row;
    const counts = [dataOffset, packedSize, unpackedSize, method, unpackVersion, dictionarySize, hostOs];
    if (!counts.every(isCount) || !isCrc(crc32) || (solid !== 0 && solid !== 1)) throw invalidIndex();
    return {
      dataOffset,
      packedSize,
      unpackedSize,
      crc32,
      method,
      unpackVersion,
      dictionarySize,
      solid: solid === 1,
      hostOs,
    } as PackedEntry;
  });
}
