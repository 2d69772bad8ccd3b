/**
 * Komga's metadata PATCH bodies (`SeriesMetadataUpdateDto`, `BookMetadataUpdateDto`) turned into Longbox
 * edits (docs/clients.md, test/support/clients/komf-metadata.ts). Komga's rules, kept exactly:
 * - a key left out changes nothing; `null` clears only the fields Komga tracks as clearable (series:
 *   readingDirection, genres, tags, totalBookCount, links, alternateTitles; books: summary, releaseDate,
 *   authors, tags, isbn, links) and means "unchanged" everywhere else;
 * - every `*Lock` is stored exactly as sent (Komga never sets one by itself, and Komf reads them back to
 *   decide what it may write) — so a body of locks alone that change nothing is a no-op;
 * - genres and tags are stored lower-cased, author roles lower-cased.
 * Unknown properties are ignored, as Spring does. `ageRating` and `sharingLabels` (and their locks) belong
 * to the access work (issue 17) and are accepted and ignored here until it lands.
 */
import { z } from 'zod';
import { WebLinkUrlSchema } from '../schemas/metadata.schema';
import type { BookEdit, SeriesEdit } from '../services/metadata.service';

const lock = z.boolean().nullish();
const notBlank = z.string().trim().min(1).nullish();
const Author = z.object({ name: z.string().trim().min(1), role: z.string().trim().min(1) });
const Link = z.object({ label: z.string().trim().min(1), url: WebLinkUrlSchema });
const AlternateTitle = z.object({ label: z.string().trim().min(1), title: z.string().trim().min(1) });

export const KomgaSeriesMetadataUpdateSchema = z.object({
  status: z.enum(['ENDED', 'ONGOING', 'ABANDONED', 'HIATUS']).nullish(),
  statusLock: lock,
  title: notBlank,
  titleLock: lock,
  titleSort: notBlank,
  titleSortLock: lock,
  summary: z.string().nullish(),
  summaryLock: lock,
  publisher: z.string().nullish(),
  publisherLock: lock,
  readingDirection: z.enum(['LEFT_TO_RIGHT', 'RIGHT_TO_LEFT', 'VERTICAL', 'WEBTOON']).nullish(),
  readingDirectionLock: lock,
  ageRating: z.number().int().min(0).nullish(),
  ageRatingLock: lock,
  language: z.string().nullish(),
  languageLock: lock,
  genres: z.array(z.string()).nullish(),
  genresLock: lock,
  tags: z.array(z.string()).nullish(),
  tagsLock: lock,
  totalBookCount: z.number().int().min(1).nullish(),
  totalBookCountLock: lock,
  sharingLabels: z.array(z.string()).nullish(),
  sharingLabelsLock: lock,
  links: z.array(Link).nullish(),
  linksLock: lock,
  alternateTitles: z.array(AlternateTitle).nullish(),
  alternateTitlesLock: lock,
});
export type KomgaSeriesMetadataUpdate = z.infer<typeof KomgaSeriesMetadataUpdateSchema>;

export const KomgaBookMetadataUpdateSchema = z.object({
  title: notBlank,
  titleLock: lock,
  summary: z.string().nullish(),
  summaryLock: lock,
  number: notBlank,
  numberLock: lock,
  numberSort: z.number().nullish(),
  numberSortLock: lock,
  releaseDate: z.iso.date().nullish(),
  releaseDateLock: lock,
  authors: z.array(Author).nullish(),
  authorsLock: lock,
  tags: z.array(z.string()).nullish(),
  tagsLock: lock,
  isbn: z.string().nullish(),
  isbnLock: lock,
  links: z.array(Link).nullish(),
  linksLock: lock,
});
export type KomgaBookMetadataUpdate = z.infer<typeof KomgaBookMetadataUpdateSchema>;

/** `PATCH /api/v1/books/metadata`: `{bookId: BookMetadataUpdateDto}`. */
export const KomgaBulkBookMetadataUpdateSchema = z.record(z.uuid(), KomgaBookMetadataUpdateSchema);

const STATUSES = { ENDED: 'ended', ONGOING: 'ongoing', ABANDONED: 'abandoned', HIATUS: 'hiatus' } as const;
const DIRECTIONS = { LEFT_TO_RIGHT: 'ltr', RIGHT_TO_LEFT: 'rtl', VERTICAL: 'ttb', WEBTOON: 'webtoon' } as const;

const blankToNull = (value: string) => (value.trim() === '' ? null : value);
const lowerCased = (values: string[]) => [...new Set(values.map((v) => v.trim().toLowerCase()).filter(Boolean))];

/** Sets `target[key]` unless `value` is undefined (absent), or null where null means "unchanged". */
function put<T extends object>(
  target: T,
  key: keyof T,
  value: unknown,
  nullClears: boolean,
  map: (v: any) => unknown = (v) => v,
) {
  if (value === undefined) return;
  if (value === null) {
    if (nullClears) (target as Record<string, unknown>)[key as string] = null;
    return;
  }
  (target as Record<string, unknown>)[key as string] = map(value);
}

/** The locks a body sets (true or false); absent and null ones stay as they are. */
function sentLocks<F extends string>(sent: Record<F, boolean | null | undefined>): Partial<Record<F, boolean>> {
  return Object.fromEntries(Object.entries(sent).filter(([, locked]) => typeof locked === 'boolean')) as Partial<
    Record<F, boolean>
  >;
}

/** The Longbox edit a Komga series PATCH makes. */
export function seriesEditOf(dto: KomgaSeriesMetadataUpdate): SeriesEdit {
  const values: SeriesEdit['values'] = {};
  put(values, 'status', dto.status, false, (s: keyof typeof STATUSES) => STATUSES[s]);
  put(values, 'title', dto.title, false);
  put(values, 'titleSort', dto.titleSort, false, (t: string) => t.toLowerCase());
  put(values, 'summary', dto.summary, false, blankToNull);
  put(values, 'publisher', dto.publisher, false, blankToNull);
  put(values, 'language', dto.language, false, blankToNull);
  put(values, 'readingDirection', dto.readingDirection, true, (d: keyof typeof DIRECTIONS) => DIRECTIONS[d]);
  put(values, 'totalBookCount', dto.totalBookCount, true);
  // Cleared lists are empty lists in Longbox (the columns are never null).
  put(values, 'genres', dto.genres === null ? [] : dto.genres, false, lowerCased);
  put(values, 'tags', dto.tags === null ? [] : dto.tags, false, lowerCased);
  put(values, 'links', dto.links === null ? [] : dto.links, false);
  put(values, 'alternateTitles', dto.alternateTitles === null ? [] : dto.alternateTitles, false);
  const locks = sentLocks({
    status: dto.statusLock,
    title: dto.titleLock,
    titleSort: dto.titleSortLock,
    summary: dto.summaryLock,
    publisher: dto.publisherLock,
    language: dto.languageLock,
    readingDirection: dto.readingDirectionLock,
    totalBookCount: dto.totalBookCountLock,
    genres: dto.genresLock,
    tags: dto.tagsLock,
    links: dto.linksLock,
    alternateTitles: dto.alternateTitlesLock,
  });
  return { values, locks };
}

/** Komga's book `number` is text ("1", "1.5", "1-3"): Longbox keeps its integer part (API.md §2 Book number). */
function integerNumber(text: string): number | undefined {
  const match = /^-?\d+(\.\d+)?/.exec(text.trim());
  return match ? Math.trunc(Number(match[0])) : undefined;
}

/** The Longbox edit a Komga book PATCH makes. */
export function bookEditOf(dto: KomgaBookMetadataUpdate): BookEdit {
  const values: BookEdit['values'] = {};
  put(values, 'title', dto.title, false);
  put(values, 'summary', dto.summary, true, blankToNull);
  if (typeof dto.number === 'string') {
    const number = integerNumber(dto.number);
    if (number !== undefined) values.number = number;
  }
  put(values, 'numberSort', dto.numberSort, false);
  if (dto.releaseDate === null) Object.assign(values, { year: null, month: null, day: null });
  else if (dto.releaseDate) {
    const [year, month, day] = dto.releaseDate.split('-').map(Number);
    Object.assign(values, { year, month, day });
  }
  put(
    values,
    'authors',
    dto.authors === null ? [] : dto.authors,
    false,
    (list: Array<{ name: string; role: string }>) =>
      list.map((a) => ({ name: a.name.trim(), role: a.role.trim().toLowerCase() })),
  );
  put(values, 'tags', dto.tags === null ? [] : dto.tags, false, lowerCased);
  put(values, 'isbn', dto.isbn, true, blankToNull);
  put(values, 'links', dto.links === null ? [] : dto.links, false);
  const locks = sentLocks({
    title: dto.titleLock,
    summary: dto.summaryLock,
    number: dto.numberLock,
    numberSort: dto.numberSortLock,
    year: dto.releaseDateLock,
    month: dto.releaseDateLock,
    day: dto.releaseDateLock,
    authors: dto.authorsLock,
    tags: dto.tagsLock,
    isbn: dto.isbnLock,
    links: dto.linksLock,
  });
  return { values, locks };
}
