/**
 * Content hashes of a book file (DECISIONS.md §Books), both computed in the one sequential read of the
 * file (sequential-object-reader.ts), never by holding it:
 * - fileHash: SHA-256 of the whole file, through the runtime's native DigestStream;
 * - readerHash: KOReader's partial MD5 — 1 KiB samples at offset 0 and 1024·4^i for i = 0..10,
 *   stopping at end of file (each sample cut short by it) — so KOReader's progress sync finds the book.
 */

export const KOREADER_SAMPLE_SIZE = 1024;

/** Where KOReader's samples start in a file of `size` bytes, in file order. */
export function koreaderSampleOffsets(size: number): number[] {
  const offsets = [0, ...Array.from({ length: 11 }, (_, i) => KOREADER_SAMPLE_SIZE * 4 ** i)];
  return offsets.filter((offset) => offset < size);
}
