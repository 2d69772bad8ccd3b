/**
 * Which book a reading-list entry means (docs/DECISIONS.md §Read lists, CBL import). Komga's rules decide
 * what can match — the series title equals `Series` or `Series (Volume)` ignoring case, and the issue number
 * equals `Number` once leading zeros are stripped, ignoring case — and, where Komga would leave the choice to
 * the user, Longbox chooses: a series whose start year is the entry's `Volume` first, then a book whose year is
 * the entry's `Year`, then the series whose title spells the volume, then reading order.
 */
import type { CblEntry } from './cbl';

/** A book that might be meant, with what the rules compare. */
export interface CblCandidate {
  bookId: string;
  seriesId: string;
  seriesTitle: string;
  /** The series' year (its first book's), compared with the entry's Volume. */
  seriesYear: number | null;
  /** The book's number as text ("12", "12.5"); null when it has none. */
  number: string | null;
  year: number | null;
  title: string;
}

export interface CblMatch {
  book: CblCandidate | null;
  /** How many books matched equally well besides the one chosen. */
  alsoMatched: number;
}

/** Komga's series-title candidates for an entry: `Series (Volume)` when Volume is not 1, then `Series`. */
export function seriesTitles(entry: Pick<CblEntry, 'series' | 'volume'>): string[] {
  const withVolume = entry.volume !== null && entry.volume !== 1 ? [`${entry.series} (${entry.volume})`] : [];
  return [...new Set([...withVolume, entry.series])];
}

/** Komga's number comparison key: leading zeros stripped, case ignored ("001" = "1", "1a" = "1A"). */
export const numberKey = (number: string) =>
  number
    .trim()
    .replace(/^0+(?=.)/, '')
    .toLowerCase();

/** A stored number (a chapter such as 12.5, or an issue number) as a reading list writes it. */
export const numberText = (value: number | null): string | null => (value === null ? null : String(value));

/** The best candidate for the entry among `candidates` (books of series whose titles might be meant). */
export function matchEntry(entry: CblEntry, candidates: readonly CblCandidate[]): CblMatch {
  const fitting = fittingBooks(entry, candidates);
  if (fitting.length === 0) return { book: null, alsoMatched: 0 };
  const scored = fitting.map((book, order) => ({ book, order, score: score(entry, book) }));
  scored.sort((a, b) => compareScores(b.score, a.score) || a.order - b.order);
  const [best] = scored;
  const tied = scored.filter((s) => compareScores(s.score, best!.score) === 0).length - 1;
  return { book: best!.book, alsoMatched: tied };
}

/** Every candidate Komga's rules let the entry mean (its `matches`), in the candidates' order. */
export function fittingBooks(entry: CblEntry, candidates: readonly CblCandidate[]): CblCandidate[] {
  const titles = seriesTitles(entry).map((title) => title.toLowerCase());
  const wanted = numberKey(entry.number);
  return candidates.filter(
    (book) =>
      titles.includes(book.seriesTitle.toLowerCase()) && book.number !== null && numberKey(book.number) === wanted,
  );
}

/** What makes one fitting book a better guess than another, most important first. */
function score(entry: CblEntry, book: CblCandidate): number[] {
  const volumeTitle =
    entry.volume !== null && book.seriesTitle.toLowerCase() === `${entry.series} (${entry.volume})`.toLowerCase();
  return [
    entry.volume !== null && book.seriesYear === entry.volume ? 1 : 0,
    entry.year !== null && book.year === entry.year ? 1 : 0,
    volumeTitle ? 1 : 0,
  ];
}

function compareScores(a: number[], b: number[]): number {
  for (let i = 0; i < a.length; i++) {
    const difference = (a[i] ?? 0) - (b[i] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
