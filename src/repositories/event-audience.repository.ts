/**
 * Who may receive an entity event (docs/DECISIONS.md §Organise and share, "Enforcement"): whether the
 * series or book an event names is visible to a viewer. Deleted rows count too — a `series_deleted` event
 * goes to those who saw the series — and a row already gone for good is visible to nobody restricted.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { books, series } from '../db/schema';
import { inIds } from './catalog-sql';
import { type Viewer, visibleBooks, visibleSeries } from './visibility';

export class EventAudienceRepository {
  constructor(private readonly db: Database) {}

  /** Those of `ids` naming a series the viewer sees (live or deleted). */
  async visibleSeriesIds(viewer: Viewer, ids: readonly string[]): Promise<Set<string>> {
    return this.visibleIds(series, visibleSeries(viewer, series), ids);
  }

  /** Those of `ids` naming a book the viewer sees (live or deleted). */
  async visibleBookIds(viewer: Viewer, ids: readonly string[]): Promise<Set<string>> {
    return this.visibleIds(books, visibleBooks(viewer, books), ids);
  }

  private async visibleIds(table: typeof series | typeof books, visible: SQL, ids: readonly string[]) {
    if (ids.length === 0) return new Set<string>();
    const rows = await this.db
      .select({ id: table.id })
      .from(table)
      .where(sql`${inIds(table.id, ids)} AND ${visible}`);
    return new Set(rows.map((row) => row.id));
  }
}
