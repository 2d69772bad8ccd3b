/**
 * The catalog as a viewer reads it: live (not soft-deleted) rows of what the viewer may see — of one id
 * when given. Most reads by id, by ids or inside a list want exactly these conditions; `visibleSeries` and
 * `visibleBooks` (visibility.ts) stay the one access rule, this only puts the soft-delete check beside it.
 */
import { and, eq, isNull, type SQL } from 'drizzle-orm';
import { books, series } from '../db/schema';
import { type Viewer, visibleBooks, visibleSeries } from './visibility';

/** Live series the viewer may see (the one with this id, when given). */
export const liveVisibleSeries = (viewer: Viewer, id?: string): SQL =>
  and(id === undefined ? undefined : eq(series.id, id), isNull(series.deletedAt), visibleSeries(viewer, series)) as SQL;

/** Live books the viewer may see (the one with this id, when given). */
export const liveVisibleBooks = (viewer: Viewer, id?: string): SQL =>
  and(id === undefined ? undefined : eq(books.id, id), isNull(books.deletedAt), visibleBooks(viewer, books)) as SQL;
