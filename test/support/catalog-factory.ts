/**
 * TEST FACTORY: seeds libraries, series and books straight into D1 (with their search rows, through the
 * same search-index statements the scanner uses), so catalog queries can be tested without scanning
 * files. Every assertion still goes through HTTP. Series aggregates are recomputed the way a scan does.
 */
import { env } from 'cloudflare:test';
import { eq, type SQL, sql } from 'drizzle-orm';
import { createD1Database } from '../../src/db/client';
import {
  books,
  bookTerms,
  libraries,
  readProgress,
  series,
  seriesTerms,
  seriesTracking,
  wantToRead,
} from '../../src/db/schema';
import { upsertSearchRow } from '../../src/repositories/search-index';
import { recountSeriesProgress, seriesOfBooks } from '../../src/repositories/series-read-progress';

export const db = createD1Database(env.DB);

type NewSeries = typeof series.$inferInsert;
type NewBook = typeof books.$inferInsert;
type NewTracking = typeof seriesTracking.$inferInsert;

let clock = Date.parse('2026-01-01T00:00:00.000Z');
/** Strictly increasing timestamps, so "newest first" orders are deterministic. */
export function tick(): string {
  clock += 1000;
  return new Date(clock).toISOString();
}

export async function seedLibrary(overrides: { name?: string; defaultReadingDirection?: 'ltr' | 'rtl' } = {}) {
  const id = crypto.randomUUID();
  const now = tick();
  const name = overrides.name ?? `Library ${id.slice(0, 8)}`;
  await db.insert(libraries).values({
    id,
    name,
    path: `lib-${id.slice(0, 8)}`,
    defaultReadingDirection: overrides.defaultReadingDirection ?? 'ltr',
    scanningConfig: { enabled: false, cron_schedule: null, default_mode: 'normal', scan_on_start: false },
    createdAt: now,
    updatedAt: now,
  });
  return { id, name };
}

export interface SeriesSeed extends Partial<Omit<NewSeries, 'libraryId' | 'authors'>> {
  genres?: string[];
  tags?: string[];
  authors?: string[];
  tracking?: Omit<NewTracking, 'seriesId' | 'createdAt' | 'updatedAt'>;
}

export async function seedSeries(library: { id: string }, seed: SeriesSeed = {}) {
  const { genres = [], tags = [], authors = [], tracking, ...columns } = seed;
  const id = columns.id ?? crypto.randomUUID();
  const now = tick();
  const title = columns.title ?? `Series ${id.slice(0, 8)}`;
  const row = {
    groupKey: `group-${id}`,
    path: `lib/${title}`,
    titleSort: title,
    createdAt: now,
    updatedAt: now,
    ...columns,
    id,
    title,
    libraryId: library.id,
  } satisfies NewSeries;
  const terms = [
    ...genres.map((value) => ({ seriesId: id, kind: 'genre' as const, value })),
    ...tags.map((value) => ({ seriesId: id, kind: 'tag' as const, value })),
  ];
  await db.batch([
    db.insert(series).values(row),
    ...(terms.length > 0 ? [db.insert(seriesTerms).values(terms)] : []),
    ...(tracking
      ? [db.insert(seriesTracking).values({ tracked: true, ...tracking, seriesId: id, createdAt: now, updatedAt: now })]
      : []),
    ...upsertSearchRow(db, {
      entityType: 'series',
      entityId: id,
      libraryId: library.id,
      title,
      seriesTitle: null,
      summary: row.summary ?? null,
      authors,
      publishers: row.publisher ? [row.publisher] : [],
    }),
  ]);
  return { ...row, libraryId: library.id };
}

export interface BookSeed extends Partial<Omit<NewBook, 'libraryId' | 'seriesId'>> {
  genres?: string[];
  tags?: string[];
}

export async function seedBook(owner: { id: string; libraryId: string; title: string }, seed: BookSeed = {}) {
  const { genres = [], tags = [], ...columns } = seed;
  const id = columns.id ?? crypto.randomUUID();
  const now = tick();
  const title = columns.title ?? `Book ${id.slice(0, 8)}`;
  const fileFormat = columns.fileFormat ?? 'cbz';
  const row = {
    path: `${owner.title}/${title}.${fileFormat}`,
    fileName: `${title}.${fileFormat}`,
    fileSize: 1000,
    etag: `etag-${id}`,
    fileModifiedAt: now,
    fileHash: `hash-${id}`,
    titleSort: title,
    sortKey: title,
    pageCount: 20,
    analyzed: true,
    createdAt: now,
    updatedAt: now,
    ...columns,
    // A seeded number is the whole number unless the seed says otherwise, as a scan stores it.
    numberSort: columns.numberSort !== undefined ? columns.numberSort : (columns.number ?? null),
    fileFormat,
    id,
    title,
    libraryId: owner.libraryId,
    seriesId: owner.id,
  } satisfies NewBook;
  const terms = [
    ...genres.map((value) => ({ bookId: id, kind: 'genre' as const, value })),
    ...tags.map((value) => ({ bookId: id, kind: 'tag' as const, value })),
  ];
  await db.batch([
    db.insert(books).values(row),
    ...(terms.length > 0 ? [db.insert(bookTerms).values(terms)] : []),
    ...upsertSearchRow(db, {
      entityType: 'book',
      entityId: id,
      libraryId: owner.libraryId,
      title,
      seriesTitle: owner.title,
      summary: row.summary ?? null,
      authors: (row.authors ?? []).map((a) => a.name),
      publishers: row.publisher ? [row.publisher] : [],
    }),
    ...refreshAggregates(owner.id),
  ]);
  return row;
}

/**
 * The series aggregates a scan maintains (book count, pages, bytes, max chapter/volume, volumes owned) and,
 * as a scan's refresh does, every reader's progress counts in the series.
 */
function refreshAggregates(seriesId: string) {
  return [aggregates(seriesId), ...recountSeriesProgress(db, sql`SELECT ${seriesId}`, null)] as const;
}

function aggregates(seriesId: string) {
  const live = (expr: SQL) =>
    sql`(SELECT ${expr} FROM books b WHERE b.series_id = ${seriesId} AND b.deleted_at IS NULL)`;
  return db
    .update(series)
    .set({
      bookCount: live(sql`count(*)`),
      pageCount: live(sql`coalesce(sum(b.page_count), 0)`),
      fileSize: live(sql`coalesce(sum(b.file_size), 0)`),
      localMaxChapter: live(sql`max(b.chapter)`),
      localMaxVolume: live(sql`max(b.volume)`),
      volumesOwned: live(sql`count(*) FILTER (WHERE b.volume IS NOT NULL AND b.chapter IS NULL)`),
    })
    .where(eq(series.id, seriesId));
}

/** A series with `count` books numbered 1..count (titles "<series> 1", …). */
export async function seedSeriesWithBooks(library: { id: string }, count: number, seed: SeriesSeed = {}) {
  const owner = await seedSeries(library, seed);
  const bookRows = [];
  for (let n = 1; n <= count; n++) {
    bookRows.push(
      await seedBook(owner, { title: `${owner.title} ${n}`, number: n, sortKey: String(n).padStart(4, '0') }),
    );
  }
  return { series: owner, books: bookRows };
}

/** Direct progress rows, for states a test needs before it starts (e.g. an old completion). */
export async function seedProgress(
  userId: string,
  bookId: string,
  state: { currentPage?: number; completed?: boolean; updatedAt?: string } = {},
) {
  const at = state.updatedAt ?? tick();
  // With the series counts the app writes beside every progress row (src/repositories/series-read-progress.ts).
  await db.batch([
    db.insert(readProgress).values({
      id: crypto.randomUUID(),
      userId,
      bookId,
      currentPage: state.currentPage ?? 1,
      completed: state.completed ?? false,
      completedAt: state.completed ? at : null,
      progressPercentage: null,
      startedAt: at,
      updatedAt: at,
    }),
    ...recountSeriesProgress(db, seriesOfBooks([bookId]), userId),
  ]);
}

export async function seedWantToRead(userId: string, bookId: string) {
  await db.insert(wantToRead).values({ userId, bookId, addedAt: tick() });
}

export async function seedSeriesWantToRead(userId: string, seriesId: string) {
  await db.insert(wantToRead).values({ userId, seriesId, addedAt: tick() });
}

export async function softDeleteBook(bookId: string) {
  const now = tick();
  await db.batch([
    db.update(books).set({ deletedAt: now, updatedAt: now }).where(eq(books.id, bookId)),
    ...refreshAggregates((await db.select({ s: books.seriesId }).from(books).where(eq(books.id, bookId)).get())!.s),
  ]);
}

export async function softDeleteSeries(seriesId: string) {
  const now = tick();
  await db.update(series).set({ deletedAt: now, updatedAt: now }).where(eq(series.id, seriesId));
}
