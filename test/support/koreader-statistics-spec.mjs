/**
 * What the KOReader statistics fixtures hold (pure data, importable anywhere): vitest.config.ts writes them with a
 * real SQLite (test/support/koreader-statistics-db.mjs) and hands the workers tests the bytes as the binding
 * `KOREADER_FIXTURES` (file name → base64); the tests read the same spec to know what each file holds.
 */

/** Fixed instants, so the bytes and the tests agree whenever and wherever each is computed. */
export const KOREADER_BASE = Date.parse('2026-11-02T18:00:00Z') / 1000;

export const KOREADER_HASHES = {
  /** A book every reader of the tests sees. */
  saga: '5a6a0000000000000000000000000001',
  /** A book in a library the restricted reader does not see. */
  diary: 'd1a70000000000000000000000000002',
  /** A book Longbox does not have. */
  elsewhere: 'e15e0000000000000000000000000003',
};

/** `count` visits of `seconds` each, one page after another from `firstPage`, starting at `start`. */
export const pagesRead = (firstPage, count, start, seconds) =>
  Array.from({ length: count }, (_, i) => ({ page: firstPage + i, start: start + i * seconds, duration: seconds }));

const HOUR = 3600;

/**
 * The reader's statistics: Saga read in two sittings (10 pages of a minute, then two hours later 5 pages of 90 s),
 * the second also kept under a second book row (KOReader makes one when the title changes) that repeats two of its
 * visits; the diary; a book Longbox does not have; a book without a hash; and a sitting of Saga from a device whose
 * clock was not set (1970). Saga's title is long enough to spill into an overflow page at the fixture's page size.
 */
/** @type {readonly import('./koreader-statistics-spec.mjs').KoreaderBookSpec[]} */
export const KOREADER_LIBRARY = [
  {
    title: `Saga 001 — ${'a long subtitle that no page of 1024 bytes holds whole; '.repeat(40)}`,
    authors: 'Brian K. Vaughan',
    md5: KOREADER_HASHES.saga,
    visits: [
      ...pagesRead(1, 10, KOREADER_BASE, 60),
      ...pagesRead(11, 5, KOREADER_BASE + 2 * HOUR, 90),
      ...pagesRead(1, 3, 40 * 86_400, 60),
    ],
  },
  {
    title: 'Saga 001 (edited title)',
    authors: 'Brian K. Vaughan',
    md5: KOREADER_HASHES.saga,
    visits: pagesRead(11, 2, KOREADER_BASE + 2 * HOUR, 90),
  },
  { title: 'Diary 001', md5: KOREADER_HASHES.diary, visits: pagesRead(1, 4, KOREADER_BASE + 5 * HOUR, 120) },
  {
    title: 'A book from elsewhere',
    md5: KOREADER_HASHES.elsewhere,
    visits: pagesRead(1, 6, KOREADER_BASE + 8 * HOUR, 30),
  },
  { title: 'A book without a hash', md5: null, visits: pagesRead(1, 2, KOREADER_BASE + 9 * HOUR, 30) },
];

/** What the library fixture's Saga sittings measure (ms): 10 × 60 s, and 5 × 90 s (its repeated visits once). */
export const SAGA_SITTINGS_MS = [600_000, 450_000];

/** The md5 of the `matrix` fixture's one book, which a test replaces with the hash it needs (same length, same record). */
export const KOREADER_PLACEHOLDER_HASH = '0123456789abcdef0123456789abcdef';

/** One book read for 10 minutes, its hash a placeholder: the access matrix names a hidden or unknown book with it. */
export const KOREADER_MATRIX = [
  { title: 'Matrix', md5: KOREADER_PLACEHOLDER_HASH, visits: pagesRead(1, 10, KOREADER_BASE, 60) },
];

/** The file with every copy of the placeholder hash (its book row, its index entry) replaced by `hash`. */
export function withHash(file, hash) {
  const from = new TextEncoder().encode(KOREADER_PLACEHOLDER_HASH);
  const to = new TextEncoder().encode(hash.toLowerCase());
  if (to.length !== from.length) throw new Error('a KOReader hash is 32 hex digits');
  const out = file.slice();
  for (let i = 0; i + from.length <= out.length; i++) {
    if (from.every((byte, j) => out[i + j] === byte)) out.set(to, i);
  }
  return out;
}
