/** Types of koreader-statistics-spec.mjs (the KOReader statistics fixtures' contents). */

/** A book as KOReader's statistics keep it: its `book` row and its `page_stat_data` rows. */
export interface KoreaderBookSpec {
  title: string;
  authors?: string;
  /** KOReader's partial MD5, or null for a book it kept none for. */
  md5: string | null;
  totalPages?: number;
  /** Page visits: `start` in Unix seconds, `duration` in seconds. */
  visits: Array<{ page: number; start: number; duration: number }>;
}

export const KOREADER_BASE: number;
export const KOREADER_HASHES: { readonly saga: string; readonly diary: string; readonly elsewhere: string };
export function pagesRead(
  firstPage: number,
  count: number,
  start: number,
  seconds: number,
): Array<{ page: number; start: number; duration: number }>;
export const KOREADER_LIBRARY: readonly KoreaderBookSpec[];
export const SAGA_SITTINGS_MS: readonly [number, number];
export const KOREADER_PLACEHOLDER_HASH: string;
export const KOREADER_MATRIX: readonly KoreaderBookSpec[];
export function withHash(file: Uint8Array, hash: string): Uint8Array;
