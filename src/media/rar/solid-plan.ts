/**
 * Which packed bytes unrar needs for each compressed entry, decided once at analysis time. A non-solid
 * entry needs only itself; a solid one needs every compressed entry since the last one that reset the
 * solid state (stored entries and directories never touch the decompressor's state, so they are left
 * out). The same limits are checked here, at analysis, so a book is refused with a reason instead of
 * failing page by page later. Chain totals are carried forward, so planning stays linear.
 */
import { BookAnalysisError } from '../errors';
import type { RarArchiveIndex, RarEntry, RarFormat } from './rar-entry';
import { MAX_WINDOW, windowFor } from './rar-extract';
import type { PackedEntry } from './synthetic-archive';

/**
 * Packed bytes one page may need decompressed before it (solid): bounds the time a page takes. unrar
 * in wasm decodes incompressible data (JPEG pages) at roughly 40 MB/s once warm, so the last page of
 * a 200 MiB solid book costs about 5 s of CPU.
 */
export const MAX_CHAIN_PACKED = 200 * 1024 * 1024;
/** A decompressed entry is held in memory whole; larger pages must be stored, not compressed. */
export const MAX_DECOMPRESSED_SIZE = 32 * 1024 * 1024;
/** Compression algorithm versions the bundled unrar 6.1.7 decodes. */
const DECODABLE: Record<RarFormat, number[]> = { 4: [15, 20, 26, 29, 36], 5: [0] };

/** Totals of the chain that ends at one packed entry. */
interface Chain {
  start: number;
  packedBytes: number;
  outputBytes: number;
  dictionary: number;
  decodable: boolean;
}

export interface DecompressionPlan {
  format: RarFormat;
  /** Compressed file entries in archive order: the solid stream. */
  packed: RarEntry[];
  chains: Chain[];
  positions: Map<RarEntry, number>;
}

export const isPacked = (entry: RarEntry) => !entry.directory && !entry.redirect && entry.method !== 0;

export function planDecompression(index: RarArchiveIndex): DecompressionPlan {
  const packed = index.entries.filter(isPacked);
  const chains: Chain[] = [];
  packed.forEach((entry, i) => {
    const before = i > 0 && entry.solid ? chains[i - 1]! : null;
    chains.push({
      start: before?.start ?? i,
      packedBytes: (before?.packedBytes ?? 0) + entry.packedSize,
      outputBytes: (before?.outputBytes ?? 0) + entry.unpackedSize,
      dictionary: Math.max(before?.dictionary ?? 0, entry.dictionarySize),
      decodable: (before?.decodable ?? true) && DECODABLE[index.format].includes(entry.unpackVersion),
    });
  });
  return { format: index.format, packed, chains, positions: new Map(packed.map((entry, i) => [entry, i])) };
}

export function toPackedEntry(entry: RarEntry): PackedEntry {
  const { dataOffset, packedSize, unpackedSize, crc32, method, unpackVersion, dictionarySize, solid, hostOs } = entry;
  return { dataOffset, packedSize, unpackedSize, crc32, method, unpackVersion, dictionarySize, solid, hostOs };
}

/** [start, end] indices into plan.packed of the chain that decompresses `entry`. */
export function chainOf(plan: DecompressionPlan, entry: RarEntry): [number, number] {
  const end = plan.positions.get(entry)!;
  return [plan.chains[end]!.start, end];
}

const repack = 'repack the book as a CBZ';

/** Throws the reason a compressed entry cannot be served from this isolate, if there is one. */
export function assertDecodable(plan: DecompressionPlan, entry: RarEntry): void {
  const chain = plan.chains[plan.positions.get(entry)!]!;
  if (!chain.decodable) {
    throw new BookAnalysisError(
      'unsupported_compression',
      `The entry ${entry.name} uses a RAR compression version Longbox cannot decompress; ${repack}`,
    );
  }
  if (entry.unpackedSize > MAX_DECOMPRESSED_SIZE) {
    throw new BookAnalysisError(
      'too_large',
      `The entry ${entry.name} is larger than ${MAX_DECOMPRESSED_SIZE >> 20} MiB and compressed; ${repack}`,
    );
  }
  if (chain.packedBytes > MAX_CHAIN_PACKED) {
    throw new BookAnalysisError(
      'too_large',
      `This solid RAR is too large to read page by page (more than ${MAX_CHAIN_PACKED >> 20} MiB must be unpacked before ${entry.name}); ${repack}`,
    );
  }
  if (windowFor(plan.format, chain.outputBytes, chain.dictionary) > MAX_WINDOW) {
    throw new BookAnalysisError(
      'dictionary_too_large',
      `This solid RAR needs more memory than the server has; ${repack}`,
    );
  }
}
