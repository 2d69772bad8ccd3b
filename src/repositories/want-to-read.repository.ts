/**
 * A user's want-to-read queue (docs/DECISIONS.md §Organise and share): series and books, in the user's order.
 * An entry is named by what it queues (a series or book id is unique in one user's queue), so the queue needs
 * no ids of its own. Reads show only entries whose series or book is live and visible to the viewer.
 */
import { and, asc, eq, max, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { books, series, wantToRead } from '../db/schema';
import { type Viewer, visibleBooks, visibleSeries } from './visibility';

export interface QueuedItem {
  kind: 'series' | 'book';
  id: string;
}

export interface QueueEntry extends QueuedItem {
  addedAt: string;
  position: number;
}

const itemId = sql<string>`coalesce(${wantToRead.seriesId}, ${wantToRead.bookId})`;

const matches = (item: QueuedItem): SQL =>
  item.kind === 'series' ? eq(wantToRead.seriesId, item.id) : eq(wantToRead.bookId, item.id);

/** The entry's series or book is live and the viewer may see it. */
function visibleEntry(viewer: Viewer): SQL {
  return sql`(
    (${wantToRead.seriesId} IS NOT NULL AND EXISTS (SELECT 1 FROM ${series} WHERE ${series.id} = ${wantToRead.seriesId}
      AND ${series.deletedAt} IS NULL AND ${visibleSeries(viewer, series)}))
    OR (${wantToRead.bookId} IS NOT NULL AND EXISTS (SELECT 1 FROM ${books} WHERE ${books.id} = ${wantToRead.bookId}
      AND ${books.deletedAt} IS NULL AND ${visibleBooks(viewer, books)})))`;
}

const ENTRY_COLUMNS = {
  seriesId: wantToRead.seriesId,
  bookId: wantToRead.bookId,
  addedAt: wantToRead.addedAt,
  position: wantToRead.position,
};

const toEntry = (row: { seriesId: string | null; bookId: string | null; addedAt: string; position: number }) => ({
  kind: row.seriesId ? ('series' as const) : ('book' as const),
  id: (row.seriesId ?? row.bookId) as string,
  addedAt: row.addedAt,
  position: row.position,
});

export class WantToReadRepository {
  constructor(private readonly db: Database) {}

  /** A page of the viewer's queue, in order. */
  async page(viewer: Viewer, limit: number, offset: number): Promise<{ rows: QueueEntry[]; total: number }> {
    const where = and(eq(wantToRead.userId, viewer.userId), visibleEntry(viewer));
    const [rows, [count]] = await Promise.all([
      this.pageQuery(viewer, limit, offset),
      this.db.select({ n: sql<number>`count(*)` }).from(wantToRead).where(where),
    ]);
    return { rows: rows.map(toEntry), total: count?.n ?? 0 };
  }

  /**
   * The series (or book) ids of that page as a subquery, so that their rows are read beside the page, not
   * after it (issue 30: one round trip).
   */
  pageIds(viewer: Viewer, kind: QueuedItem['kind'], limit: number, offset: number): SQL {
    const column = kind === 'series' ? 'series_id' : 'book_id';
    return sql`SELECT ${sql.identifier(column)} FROM (${this.pageQuery(viewer, limit, offset)})
      WHERE ${sql.identifier(column)} IS NOT NULL`;
  }

  private pageQuery(viewer: Viewer, limit: number, offset: number) {
    return this.db
      .select(ENTRY_COLUMNS)
      .from(wantToRead)
      .where(and(eq(wantToRead.userId, viewer.userId), visibleEntry(viewer)))
      .orderBy(asc(wantToRead.position), asc(wantToRead.addedAt), asc(itemId))
      .limit(limit)
      .offset(offset);
  }

  /** The ids of the queued series and books the viewer may see (the ones it may name). */
  async visibleIds(viewer: Viewer): Promise<Set<string>> {
    const rows = await this.db
      .select({ id: itemId })
      .from(wantToRead)
      .where(and(eq(wantToRead.userId, viewer.userId), visibleEntry(viewer)));
    return new Set(rows.map((row) => row.id));
  }

  /** Every entry of the user's queue (hidden ones too), in order. */
  async all(userId: string): Promise<QueueEntry[]> {
    const rows = await this.db
      .select(ENTRY_COLUMNS)
      .from(wantToRead)
      .where(eq(wantToRead.userId, userId))
      .orderBy(asc(wantToRead.position), asc(wantToRead.addedAt), asc(itemId));
    return rows.map(toEntry);
  }

  async find(userId: string, item: QueuedItem): Promise<QueueEntry | undefined> {
    const row = await this.db
      .select(ENTRY_COLUMNS)
      .from(wantToRead)
      .where(and(eq(wantToRead.userId, userId), matches(item)))
      .get();
    return row && toEntry(row);
  }

  /** Queues the items at the end, in order; items already queued keep their place. Returns how many were added. */
  async add(userId: string, items: readonly QueuedItem[], now: string): Promise<number> {
    if (items.length === 0) return 0;
    const rows = JSON.stringify(
      items.map((item) => [item.kind === 'series' ? item.id : null, item.kind === 'book' ? item.id : null]),
    );
    const next = sql`(SELECT coalesce(${max(wantToRead.position)}, -1) + 1 FROM ${wantToRead} WHERE ${wantToRead.userId} = ${userId})`;
    const inserted = await this.db
      .insert(wantToRead)
      .select(
        sql`SELECT ${userId}, i.value ->> 1, i.value ->> 0, ${now}, ${next} + i.key FROM json_each(${rows}) i WHERE true`,
      )
      .onConflictDoNothing()
      .returning({ userId: wantToRead.userId });
    return inserted.length;
  }

  /**
   * What users queued on another server (a migration's batch): each item at the end of its user's queue, unless
   * it is queued already; items whose user, series or book is not here are left out. Returns how many were added.
   */
  async importQueued(
    entries: ReadonlyArray<{ userId: string; seriesId: string | null; bookId: string | null }>,
    now: string,
  ): Promise<number> {
    if (entries.length === 0) return 0;
    const rows = JSON.stringify(entries.map((e) => [e.userId, e.seriesId, e.bookId]));
    const next = sql`(SELECT coalesce(max(q.position), -1) + 1 FROM want_to_read q WHERE q.user_id = i.value ->> 0)`;
    const inserted = await this.db
      .insert(wantToRead)
      .select(
        sql`SELECT i.value ->> 0, i.value ->> 2, i.value ->> 1, ${now}, ${next} + i.key FROM json_each(${rows}) i
          WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = i.value ->> 0)
            AND (i.value ->> 1 IS NULL) <> (i.value ->> 2 IS NULL)
            AND (EXISTS (SELECT 1 FROM series s WHERE s.id = i.value ->> 1)
              OR EXISTS (SELECT 1 FROM books b WHERE b.id = i.value ->> 2))`,
      )
      .onConflictDoNothing()
      .returning({ userId: wantToRead.userId });
    return inserted.length;
  }

  async remove(userId: string, item: QueuedItem): Promise<boolean> {
    const removed = await this.db
      .delete(wantToRead)
      .where(and(eq(wantToRead.userId, userId), matches(item)))
      .returning({ userId: wantToRead.userId });
    return removed.length > 0;
  }

  /** The user's whole queue in this order (ids of series and books): positions 0, 1, 2… */
  async reorder(userId: string, orderedIds: readonly string[]): Promise<void> {
    await this.db
      .update(wantToRead)
      .set({ position: sql`(SELECT o.key FROM json_each(${JSON.stringify(orderedIds)}) o WHERE o.value = ${itemId})` })
      .where(
        and(
          eq(wantToRead.userId, userId),
          sql`${itemId} IN (SELECT value FROM json_each(${JSON.stringify(orderedIds)}))`,
        ),
      );
  }
}
