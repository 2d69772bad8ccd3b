/**
 * Sharing labels (Komga's name; Codex-rs: sharing tags) and the series carrying them
 * (docs/DECISIONS.md §Organise and share). Names are unique ignoring case. A label's grants to users live
 * in user_sharing_labels (user-access.repository.ts); deleting a label removes it from every series and
 * every user in one batch.
 */
import { and, asc, count, eq, getTableColumns, inArray, isNull, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Database } from '../db/client';
import { series, seriesSharingLabels, sharingLabels, userSharingLabels } from '../db/schema';
import { inIds } from './catalog-sql';
import { type Viewer, visibleSeries } from './visibility';

export type SharingLabelRecord = typeof sharingLabels.$inferSelect;
export type SharingLabelWithCounts = SharingLabelRecord & { seriesCount: number; userCount: number };

/** Named in full: drizzle leaves a one-table select's columns unqualified, which subqueries would misread. */
const LABEL_ID = sql.raw('"sharing_labels"."id"');

/** The label's columns with its counts: series the viewer sees carrying it (no count reveals a hidden one), users holding it. */
const withCounts = (viewer: Viewer) => ({
  id: sharingLabels.id,
  name: sharingLabels.name,
  description: sharingLabels.description,
  createdAt: sharingLabels.createdAt,
  updatedAt: sharingLabels.updatedAt,
  seriesCount: sql<number>`(SELECT count(*) FROM series_sharing_labels AS s JOIN series AS counted ON counted.id = s.series_id
    WHERE s.label_id = ${LABEL_ID} AND counted.deleted_at IS NULL
    AND ${visibleSeries(viewer, { id: sql.raw('counted.id'), libraryId: sql.raw('counted.library_id') })})`,
  userCount: sql<number>`(SELECT count(*) FROM user_sharing_labels u WHERE u.label_id = ${LABEL_ID})`,
});

const byName = sql`${sharingLabels.name} COLLATE NOCASE`;

export class SharingLabelsRepository {
  constructor(private readonly db: Database) {}

  /** Every label by name, with how many series carry it and how many users hold a grant of it. */
  async list(
    viewer: Viewer,
    offset: number,
    limit: number,
  ): Promise<{ rows: SharingLabelWithCounts[]; total: number }> {
    const [rows, total] = await Promise.all([
      this.db
        .select(withCounts(viewer))
        .from(sharingLabels)
        .orderBy(byName, asc(sharingLabels.id))
        .limit(limit)
        .offset(offset),
      this.db.select({ n: count() }).from(sharingLabels).get(),
    ]);
    return { rows, total: total?.n ?? 0 };
  }

  async get(viewer: Viewer, id: string): Promise<SharingLabelWithCounts | undefined> {
    return this.db.select(withCounts(viewer)).from(sharingLabels).where(eq(sharingLabels.id, id)).get();
  }

  /** Those of `ids` that name a label. */
  async existingIds(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.select({ id: sharingLabels.id }).from(sharingLabels).where(inIds(sharingLabels.id, ids));
    return new Set(rows.map((row) => row.id));
  }

  /** The label named `name` (ignoring case), other than `exceptId`. */
  async named(name: string, exceptId?: string): Promise<SharingLabelRecord | undefined> {
    return this.db
      .select()
      .from(sharingLabels)
      .where(and(sql`${byName} = ${name}`, exceptId ? sql`${sharingLabels.id} <> ${exceptId}` : undefined))
      .get();
  }

  async create(label: SharingLabelRecord): Promise<void> {
    await this.db.insert(sharingLabels).values(label);
  }

  /**
   * The ids of the labels with these names (ignoring case), by lower-cased name. Compared as the unique index
   * compares (`COLLATE NOCASE`, which folds ASCII letters only): every label `creation` would collide with is
   * found, whatever other letters its name has ("Ärzte" is not lower-cased to "ärzte" by SQLite).
   */
  async idsNamed(names: readonly string[]): Promise<Map<string, string>> {
    if (names.length === 0) return new Map();
    const wanted = JSON.stringify([...new Set(names)]);
    const rows = await this.db
      .select({ id: sharingLabels.id, name: sharingLabels.name })
      .from(sharingLabels)
      .where(sql`${byName} IN (SELECT value FROM json_each(${wanted}))`);
    return new Map(rows.map((row) => [row.name.toLowerCase(), row.id]));
  }

  /**
   * `ensureNamed` for a caller's own batch, after `idsNamed` read `known`: the ids of every label of `names`,
   * those `known` lacks new, and the statement creating them. Should a label of the same name be made in
   * between, the insert skips it and the batch fails on the grant naming the new id: nothing is written
   * (the peer import's `runBatch`, services/peer-import/outcomes.ts, answers that with a 409).
   */
  creation(
    names: readonly string[],
    known: ReadonlyMap<string, string>,
    now: string,
  ): { ids: Map<string, string>; statements: BatchItem<'sqlite'>[] } {
    const ids = new Map(known);
    const fresh: Array<[string, string]> = [];
    // The first spelling of a name wins.
    for (const name of names) {
      const lower = name.toLowerCase();
      if (ids.has(lower)) continue;
      const id = crypto.randomUUID();
      ids.set(lower, id);
      fresh.push([id, name]);
    }
    if (fresh.length === 0) return { ids, statements: [] };
    return {
      ids,
      statements: [
        this.db
          .insert(sharingLabels)
          .select(
            sql`SELECT l.value ->> 0, l.value ->> 1, NULL, ${now}, ${now} FROM json_each(${JSON.stringify(fresh)}) AS l WHERE true`,
          )
          .onConflictDoNothing(),
      ],
    };
  }

  /**
   * The ids of labels with these names (ignoring case), creating the missing ones (Komga's labels are
   * free text: naming one creates it). One batch: an insert that skips existing names, then the read.
   */
  async ensureNamed(names: readonly string[], now: string): Promise<Map<string, string>> {
    // The first spelling of a name wins.
    const wanted = [...new Map(names.toReversed().map((n) => [n.toLowerCase(), n])).values()];
    if (wanted.length === 0) return new Map();
    const rows = JSON.stringify(wanted.map((name) => [crypto.randomUUID(), name]));
    const [, found] = await this.db.batch([
      this.db
        .insert(sharingLabels)
        .select(sql`SELECT l.value ->> 0, l.value ->> 1, NULL, ${now}, ${now} FROM json_each(${rows}) AS l WHERE true`)
        .onConflictDoNothing(),
      this.db
        .select({ id: sharingLabels.id, name: sharingLabels.name })
        .from(sharingLabels)
        .where(sql`lower(${sharingLabels.name}) IN (SELECT lower(value) FROM json_each(${JSON.stringify(wanted)}))`),
    ]);
    return new Map(found.map((row) => [row.name.toLowerCase(), row.id]));
  }

  async update(id: string, changes: Partial<Pick<SharingLabelRecord, 'name' | 'description' | 'updatedAt'>>) {
    const [row] = await this.db.update(sharingLabels).set(changes).where(eq(sharingLabels.id, id)).returning();
    return row;
  }

  /** Removes the label from every series and user, then the label; false when there was none. */
  async delete(id: string): Promise<boolean> {
    const [, , deleted] = await this.db.batch([
      this.db.delete(seriesSharingLabels).where(eq(seriesSharingLabels.labelId, id)),
      this.db.delete(userSharingLabels).where(eq(userSharingLabels.labelId, id)),
      this.db.delete(sharingLabels).where(eq(sharingLabels.id, id)).returning({ id: sharingLabels.id }),
    ]);
    return deleted.length > 0;
  }

  /** The labels of a series, by name. */
  async ofSeries(seriesId: string): Promise<SharingLabelRecord[]> {
    return this.db
      .select(getTableColumns(sharingLabels))
      .from(seriesSharingLabels)
      .innerJoin(sharingLabels, eq(sharingLabels.id, seriesSharingLabels.labelId))
      .where(eq(seriesSharingLabels.seriesId, seriesId))
      .orderBy(byName);
  }

  /**
   * Replaces a series' labels (when `labelIds` is given) and sets its lock (when `lock` is given), in one
   * batch: a series' labels and lock change together or not at all.
   */
  async setForSeries(
    seriesId: string,
    labelIds: readonly string[] | undefined,
    lock: boolean | undefined,
  ): Promise<void> {
    const [first, ...rest] = this.settingForSeries(seriesId, labelIds, lock);
    if (first) await this.db.batch([first, ...rest]);
  }

  /** `setForSeries` for a caller's own batch: its statements. */
  settingForSeries(
    seriesId: string,
    labelIds: readonly string[] | undefined,
    lock: boolean | undefined,
  ): BatchItem<'sqlite'>[] {
    const statements: BatchItem<'sqlite'>[] = [];
    if (lock !== undefined) {
      statements.push(this.db.update(series).set({ sharingLabelsLock: lock }).where(eq(series.id, seriesId)));
    }
    if (labelIds !== undefined) {
      statements.push(this.db.delete(seriesSharingLabels).where(eq(seriesSharingLabels.seriesId, seriesId)));
      if (labelIds.length > 0) {
        statements.push(
          this.db
            .insert(seriesSharingLabels)
            .select(sql`SELECT ${seriesId}, l.value FROM json_each(${JSON.stringify([...new Set(labelIds)])}) AS l`),
        );
      }
    }
    return statements;
  }

  /** What a series carries that decides who sees it, beside its labels: its rating and both locks. */
  async seriesSharing(seriesId: string) {
    return this.db
      .select({
        ageRating: series.ageRating,
        ageRatingLock: series.ageRatingLock,
        sharingLabelsLock: series.sharingLabelsLock,
      })
      .from(series)
      .where(eq(series.id, seriesId))
      .get();
  }

  /** Puts one label on a series (and locks its labels); false when it already carried it. */
  async addToSeries(seriesId: string, labelId: string): Promise<boolean> {
    const [inserted] = await this.db.batch([
      this.db
        .insert(seriesSharingLabels)
        .values({ seriesId, labelId })
        .onConflictDoNothing()
        .returning({ id: seriesSharingLabels.labelId }),
      this.db.update(series).set({ sharingLabelsLock: true }).where(eq(series.id, seriesId)),
    ]);
    return inserted.length > 0;
  }

  /** Takes one label off a series (and locks its labels); false when it did not carry it. */
  async removeFromSeries(seriesId: string, labelId: string): Promise<boolean> {
    const [removed] = await this.db.batch([
      this.db
        .delete(seriesSharingLabels)
        .where(and(eq(seriesSharingLabels.seriesId, seriesId), eq(seriesSharingLabels.labelId, labelId)))
        .returning({ id: seriesSharingLabels.labelId }),
      this.db.update(series).set({ sharingLabelsLock: true }).where(eq(series.id, seriesId)),
    ]);
    return removed.length > 0;
  }

  /**
   * Names of the labels on live series the viewer sees (of some libraries, when given), lower-cased and
   * sorted: Komga's `GET /api/v1/sharing-labels`, so no name appears that only hidden series carry.
   */
  async visibleNames(viewer: Viewer, libraryIds: readonly string[]): Promise<string[]> {
    const rows = await this.db
      .selectDistinct({ name: sql<string>`lower(${sharingLabels.name})` })
      .from(seriesSharingLabels)
      .innerJoin(sharingLabels, eq(sharingLabels.id, seriesSharingLabels.labelId))
      .innerJoin(series, eq(series.id, seriesSharingLabels.seriesId))
      .where(
        and(
          isNull(series.deletedAt),
          visibleSeries(viewer, series),
          libraryIds.length > 0 ? inArray(series.libraryId, [...libraryIds]) : undefined,
        ),
      )
      .orderBy(sql`lower(${sharingLabels.name})`);
    return rows.map((row) => row.name);
  }
}
