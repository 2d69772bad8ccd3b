/**
 * Covers users uploaded for a series or a book (the `covers` table, issue 18), and which one is selected.
 * A series points at its selected cover's thumbnail (`series.thumbnail_key`, `has_custom_cover`,
 * `selected_cover_source`), which the first-book cover refresh leaves alone; a book's selected cover is
 * read with the book when its thumbnail is served (book-media.repository.ts, coverColumns; its own
 * thumbnail key is the generated one, rewritten by scans).
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { covers, series } from '../db/schema';
import type { Statement } from './catalog-writer.repository';

export type CoverRow = typeof covers.$inferSelect;
export type CoverOwner = { kind: 'series' | 'book'; id: string };

const ownedBy = (owner: CoverOwner) =>
  owner.kind === 'series' ? eq(covers.seriesId, owner.id) : eq(covers.bookId, owner.id);

export class UploadedCoversRepository {
  constructor(private readonly db: Database) {}

  list(owner: CoverOwner): Promise<CoverRow[]> {
    return this.db.select().from(covers).where(ownedBy(owner)).orderBy(asc(covers.createdAt), asc(covers.id));
  }

  one(owner: CoverOwner, coverId: string): Promise<CoverRow | undefined> {
    return this.db
      .select()
      .from(covers)
      .where(and(ownedBy(owner), eq(covers.id, coverId)))
      .get();
  }

  /** The owner's selected cover; null while the generated cover shows. */
  async selectedId(owner: CoverOwner): Promise<string | null> {
    const row = await this.db
      .select({ id: covers.id })
      .from(covers)
      .where(and(ownedBy(owner), eq(covers.selected, true)))
      .get();
    return row?.id ?? null;
  }

  /**
   * A new cover, made the owner's selected one when `selected` (its `seriesThumbnailKey` then points a series
   * at it), and read back: one batch, with `alsoWrite` (what an import remembers) in it.
   */
  async add(
    owner: CoverOwner,
    row: typeof covers.$inferInsert,
    selection: { seriesThumbnailKey: string } | null,
    alsoWrite: Statement[] = [],
  ): Promise<CoverRow> {
    const results = await this.db.batch([
      this.db.insert(covers).values(row),
      ...(selection ? this.selection(owner, row.id, selection.seriesThumbnailKey, row.updatedAt) : []),
      ...alsoWrite,
      this.db
        .select()
        .from(covers)
        .where(and(ownedBy(owner), eq(covers.id, row.id))),
    ] as [Statement, ...Statement[]]);
    return (results[results.length - 1] as CoverRow[])[0] as CoverRow;
  }

  /**
   * Takes back a cover `add` wrote a moment ago (its images could not be stored): its row, the selection it made
   * (`restore`: the cover selected before, and the series' pointer to it) and `alsoUndo` — one batch.
   */
  async takeBack(
    owner: CoverOwner,
    coverId: string,
    restore: { coverId: string | null; seriesThumbnailKey: string | null } | null,
    alsoUndo: Statement[],
    now: string,
  ): Promise<void> {
    await this.db.batch([
      this.db.delete(covers).where(and(ownedBy(owner), eq(covers.id, coverId))),
      ...(restore ? this.selection(owner, restore.coverId, restore.seriesThumbnailKey, now) : []),
      ...alsoUndo,
    ] as [Statement, ...Statement[]]);
  }

  /**
   * Makes `coverId` the owner's selected cover (null: none, the generated cover shows again); a series'
   * pointer follows in the same batch (`thumbnailKey` of the chosen cover, or null to be refreshed).
   */
  async select(owner: CoverOwner, coverId: string | null, seriesThumbnailKey: string | null, now: string) {
    const [first, ...rest] = this.selection(owner, coverId, seriesThumbnailKey, now);
    await this.db.batch([first as Statement, ...rest]);
  }

  private selection(
    owner: CoverOwner,
    coverId: string | null,
    seriesThumbnailKey: string | null,
    now: string,
  ): Statement[] {
    const statements: Statement[] = [
      this.db
        .update(covers)
        .set({ selected: sql`${covers.id} IS ${coverId}`, updatedAt: now })
        .where(ownedBy(owner)),
    ];
    if (owner.kind === 'series') {
      statements.push(
        this.db
          .update(series)
          .set({
            hasCustomCover: coverId !== null,
            selectedCoverSource: coverId ? `custom:${coverId}` : 'first_book',
            thumbnailKey: seriesThumbnailKey,
            thumbnailUpdatedAt: now,
            updatedAt: now,
          })
          .where(eq(series.id, owner.id)),
      );
    }
    return statements;
  }

  async delete(owner: CoverOwner, coverId: string): Promise<void> {
    await this.db.delete(covers).where(and(ownedBy(owner), eq(covers.id, coverId)));
  }
}
