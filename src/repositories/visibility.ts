/**
 * Which catalog rows a reader may see: the one hook of the catalog query layer (docs/ARCHITECTURE.md,
 * "Catalog query layer").
 *
 * Every catalog read — lists, counts, full-text search, filters, term lists, on-deck, in-progress,
 * recently added/read/updated, next/previous, details by id, the lookups behind pages, covers and file
 * downloads, duplicates, KOReader's lookup by hash, for /api/v1, /opds, /komga and /koreader alike —
 * takes a `Viewer` and puts `visibleSeries` (or `visibleBooks`, built on it) into its WHERE clause.
 * The repositories' read methods take the viewer as a required parameter, and a viewer can only be made
 * by `viewerOf` from the signed-in caller, so a read that forgets it does not compile.
 *
 * Today every reader sees every series: `visibleSeries` is TRUE, which SQLite evaluates once, before
 * the loop, and `visibleBooks` adds nothing. Per-library access, age ratings and sharing labels change
 * only `viewerOf` (what a viewer carries) and `visibleSeries` (the condition): it tests columns of the
 * series row (library_id, an age rating, labels), so SQLite can test it through an index and book
 * queries reach it as one list of visible series ids built once per statement.
 */
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import { series } from '../db/schema';

declare const viewerBrand: unique symbol;

/** The reader a catalog query answers for: their id (progress, want-to-read) and what they may see. */
export interface Viewer {
  readonly userId: string;
  /**
   * Equal for viewers who see exactly the same rows: the key under which anything shared between
   * requests (an isolate cache of catalog rows) must be stored, so no viewer reads another's rows.
   */
  readonly scope: string;
  readonly [viewerBrand]: true;
}

/** What a viewer is made from: the signed-in caller (auth/principal.ts `Principal`). */
export interface ViewerSource {
  user: { id: string };
}

/** Every viewer today sees the whole catalog. */
const WHOLE_CATALOG = 'all';

const viewers = new WeakMap<ViewerSource, Viewer>();

/**
 * The viewer of a signed-in caller: the only way to make one. Made once per caller object, i.e. once
 * per request (each request authenticates into a new principal).
 */
export function viewerOf(caller: ViewerSource): Viewer {
  let viewer = viewers.get(caller);
  if (!viewer) {
    viewer = { userId: caller.user.id, scope: WHOLE_CATALOG } as Viewer;
    viewers.set(caller, viewer);
  }
  return viewer;
}

/** The columns of a series row (the table, or an alias of it) that visibility may test. */
export interface SeriesColumns {
  id: SQLWrapper;
  libraryId: SQLWrapper;
}

/** A condition that holds for every row: SQLite evaluates a constant term once, outside the loop. */
const EVERY_ROW = sql`TRUE`;

/**
 * The series `s` is visible to the viewer: the condition every catalog query applies to each series it
 * reads, directly or through a book (visibleBooks). Today: every series.
 */
export function visibleSeries(_viewer: Viewer, _s: SeriesColumns): SQL {
  return EVERY_ROW;
}

/** The series table as visibleBooks reads it, apart from any `series` of the enclosing query. */
const visible = alias(series, 'visible_series');

/**
 * The book whose series id is `seriesId` (a column of the book row) is visible to the viewer: it
 * belongs to a visible series. Without a restriction, nothing is added to the query.
 */
export function visibleBooks(viewer: Viewer, book: { seriesId: SQLWrapper }): SQL {
  const condition = visibleSeries(viewer, visible);
  if (condition === EVERY_ROW) return EVERY_ROW;
  return sql`${book.seriesId} IN (SELECT ${visible.id} FROM ${series} AS ${sql.raw('visible_series')} WHERE ${condition})`;
}
