/**
 * Decompresses one entry through unrar: the entry (or, in a solid archive, the chain of compressed
 * entries from the last solid reset up to it) goes into a synthetic archive whose packed data is read
 * from the book with one range read per entry.
 *
 * Memory: unrar allocates the whole dictionary the header declares (measured: heap = 16 MiB up to an
 * ~8 MiB window, then ~5.5 MiB + window: 32 MiB → 37.5 MiB, 256 MiB → 261.5 MiB). A match can never
 * reach further back than the bytes already produced, so the synthetic headers declare only the
 * smallest valid window that covers the chain's output: a 32 MiB-dictionary solid book of 20 MiB
 * needs a 32 MiB window at its last page and far less at its first.
 */
import type { RangeReader } from '../range-reader';
import type { RarFormat } from './rar-entry';
import { type PackedEntry, syntheticArchive } from './synthetic-archive';
import { unrarExtract } from './unrar-engine';
import type { ArchivePart } from './unrar-host';

/** Largest window handed to unrar (heap ≈ 37.5 MiB); larger solid chains are refused at analysis. */
export const MAX_WINDOW = 32 * 1024 * 1024;
/** Smallest dictionary each format can declare. */
const MIN_WINDOW: Record<RarFormat, number> = { 4: 0x10000, 5: 0x20000 };

/** The window for `output` bytes: a power of two ≥ the output, never above what the packer declared. */
export function windowFor(format: RarFormat, output: number, declared: number): number {
  let window = MIN_WINDOW[format];
  while (window < output && window < declared) window *= 2;
  return window;
}

export const chainWindow = (format: RarFormat, chain: PackedEntry[]): number =>
  windowFor(
    format,
    chain.reduce((sum, entry) => sum + entry.unpackedSize, 0),
    Math.max(...chain.map((entry) => entry.dictionarySize)),
  );

export function extractPacked(
  reader: RangeReader,
  format: RarFormat,
  chain: PackedEntry[],
  entryName: string,
): Promise<Uint8Array> {
  const window = chainWindow(format, chain);
  const entries = chain.map((entry) => ({ ...entry, dictionarySize: window }));
  const archive = syntheticArchive(format, entries.length > 1 || entries.some((entry) => entry.solid), entries);
  const parts: ArchivePart[] = [{ length: archive.prefix.length, bytes: archive.prefix }];
  const dataParts: number[] = [];
  entries.forEach((entry, i) => {
    const header = archive.headers[i]!;
    parts.push({ length: header.length, bytes: header });
    dataParts.push(parts.length);
    parts.push({
      length: entry.packedSize,
      bytes: null,
      load: () => reader.read(entry.dataOffset, entry.packedSize),
    });
  });
  parts.push({ length: archive.end.length, bytes: archive.end });
  return unrarExtract({ parts, dataParts, expectedSize: entries[entries.length - 1]!.unpackedSize, entryName });
}
