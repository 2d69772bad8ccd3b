/**
 * Who may receive an entity event (docs/DECISIONS.md §Organise and share, "Enforcement"): whether the
 * series or book an event names is visible to a viewer. Deleted rows count too — a `series_deleted` event
 * goes to those who saw the series — and a row already gone for good is visible to nobody restricted.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { books, series } from '../db/schema';
import { inIds } from './catalog-sql';
import { type Viewer, visibleBooks, visibleSeries } from './visibility';

export class EventAudienceRepository {
  constructor(private readonly db: Database) {}

  /** Those of `ids` naming a series the viewer sees (live or deleted). */
  async visibleSeriesIds(viewer: Viewer, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .select({ id: series.id })
      .from(series)
      .where(sql`${inIds(series.id, ids)} AND ${visibleSeries(viewer, series)}`);
    return new Set(rows.map((row) => row.id));
  }

  /** Those of `ids` naming a book the viewer sees (live or deleted). */
  async visibleBookIds(viewer: Viewer, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .select({ id: books.id })
      .from(books)
      .where(sql`${inIds(books.id, ids)} AND ${visibleBooks(viewer, books)}`);
    return new Set(rows.map((row) => row.id));
  }
}
