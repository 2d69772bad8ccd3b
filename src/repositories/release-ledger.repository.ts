/**
 * The release ledger (docs/DECISIONS.md §Release tracking; Codex-rs `release_ledger`): the inbox across
 * series, one series' ledger, state changes one by one and in bulk. Every read and write is for a viewer and
 * reaches only releases of live series the viewer may see (a hidden release answers as an unknown one). The
 * polls' inserts and the scan's "now acquired" update are statements built here too, so this table has one
 * home.
 */
import { and, asc, count, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { releaseLedger, releaseSources, series, seriesTracking } from '../db/schema';
import type { ReleaseState } from '../db/tables/releases';
import { inIds } from './catalog-sql';
import { heldByLibrary } from './release-ownership';
import { type Viewer, visibleSeries } from './visibility';

export type { ReleaseState };

export interface InboxFilter {
  /** One state, or every state. */
  state: ReleaseState | 'all';
  seriesId?: string;
  sourceId?: string;
  language?: string;
  libraryId?: string;
}

export type InboxSort = { field: 'series' | 'observed' | 'released'; direction: 'asc' | 'desc' };

/** The columns of a release as the API shows it, with its series' title and library. */
const releaseColumns = {
  id: releaseLedger.id,
  seriesId: releaseLedger.seriesId,
  seriesTitle: series.title,
  libraryId: series.libraryId,
  sourceId: releaseLedger.sourceId,
  provider: releaseSources.provider,
  externalReleaseId: releaseLedger.externalReleaseId,
  chapterStart: releaseLedger.chapterStart,
  chapter: releaseLedger.chapter,
  volumeStart: releaseLedger.volumeStart,
  volume: releaseLedger.volume,
  language: releaseLedger.language,
  groupOrUploader: releaseLedger.groupOrUploader,
  payloadUrl: releaseLedger.payloadUrl,
  confidence: releaseLedger.confidence,
  state: releaseLedger.state,
  metadata: releaseLedger.metadata,
  observedAt: releaseLedger.observedAt,
  releasedAt: releaseLedger.releasedAt,
  createdAt: releaseLedger.createdAt,
};

export interface ReleaseRow {
  id: string;
  seriesId: string;
  seriesTitle: string;
  libraryId: string;
  sourceId: string;
  provider: string;
  externalReleaseId: string;
  chapterStart: number | null;
  chapter: number | null;
  volumeStart: number | null;
  volume: number | null;
  language: string | null;
  groupOrUploader: string | null;
  payloadUrl: string;
  confidence: number;
  state: ReleaseState;
  metadata: Record<string, unknown> | null;
  observedAt: string;
  releasedAt: string | null;
  createdAt: string;
}

/** A release a poll found, as it is recorded. */
export interface NewRelease {
  id: string;
  seriesId: string;
  sourceId: string;
  externalReleaseId: string;
  chapterStart: number | null;
  chapter: number | null;
  volumeStart: number | null;
  volume: number | null;
  language: string;
  groupOrUploader: string | null;
  payloadUrl: string;
  confidence: number;
  metadata: Record<string, unknown> | null;
  observedAt: string;
  releasedAt: string | null;
}

/** A release the poll's insert recorded (not one already in the ledger), and the state it got. */
export interface RecordedRelease {
  id: string;
  seriesId: string;
  sourceId: string;
  chapter: number | null;
  volume: number | null;
  language: string | null;
  state: ReleaseState;
}

/** The ledger's releases of live series the viewer may see. */
const visibleRelease = (viewer: Viewer) =>
  and(
    sql`${releaseLedger.seriesId} IN (SELECT ${series.id} FROM ${series} WHERE ${isNull(series.deletedAt)} AND ${visibleSeries(viewer, series)})`,
  ) as SQL;

/** Ledger rows joined with their series and source; `where` must keep `visibleRelease` (seen below). */
function selectReleases(db: Database) {
  return db
    .select(releaseColumns)
    .from(releaseLedger)
    .innerJoin(series, eq(series.id, releaseLedger.seriesId))
    .innerJoin(releaseSources, eq(releaseSources.id, releaseLedger.sourceId))
    .$dynamic();
}

/** Releases of live series the viewer may see, for queries joined with `series`. */
const seen = (viewer: Viewer, ...more: Array<SQL | undefined>) =>
  and(isNull(series.deletedAt), visibleSeries(viewer, series), ...more);

function filterOf(filter: InboxFilter): SQL | undefined {
  return and(
    filter.state === 'all' ? undefined : eq(releaseLedger.state, filter.state),
    filter.seriesId ? eq(releaseLedger.seriesId, filter.seriesId) : undefined,
    filter.sourceId ? eq(releaseLedger.sourceId, filter.sourceId) : undefined,
    filter.language ? eq(releaseLedger.language, filter.language) : undefined,
    filter.libraryId ? eq(series.libraryId, filter.libraryId) : undefined,
  );
}

function orderOf({ field, direction }: InboxSort) {
  const by = direction === 'asc' ? asc : desc;
  switch (field) {
    case 'series':
      // A series' releases newest chapter first, under its title.
      return [
        by(sql`${series.titleSort} COLLATE NOCASE`),
        desc(releaseLedger.chapter),
        desc(releaseLedger.volume),
        asc(releaseLedger.id),
      ];
    // Releases seen in one poll share their time: the newest chapter first among them.
    case 'observed':
      return [
        by(releaseLedger.observedAt),
        desc(releaseLedger.chapter),
        desc(releaseLedger.volume),
        asc(releaseLedger.id),
      ];
    case 'released':
      return [
        by(sql`coalesce(${releaseLedger.releasedAt}, ${releaseLedger.observedAt})`),
        desc(releaseLedger.chapter),
        desc(releaseLedger.volume),
        asc(releaseLedger.id),
      ];
  }
}

/** What `page`'s two statements read, as the API lists it. */
const pageOf = (rows: unknown[], [counted]: Array<{ total: number }>) => ({
  rows: rows as ReleaseRow[],
  total: counted?.total ?? 0,
});

export class ReleaseLedgerRepository {
  constructor(private readonly db: Database) {}

  /** A page of the inbox and its total, in one batch. */
  async inbox(viewer: Viewer, filter: InboxFilter, sort: InboxSort, limit: number, offset: number) {
    const [rows, counted] = await this.db.batch(this.page(seen(viewer, filterOf(filter)), sort, limit, offset));
    return pageOf(rows, counted);
  }

  /** One series' releases (null when the viewer may not see the series), in one batch. */
  async ofSeries(
    viewer: Viewer,
    seriesId: string,
    filter: InboxFilter,
    sort: InboxSort,
    limit: number,
    offset: number,
  ) {
    const where = seen(viewer, filterOf({ ...filter, seriesId }));
    const [found, rows, counted] = await this.db.batch([
      this.db
        .select({ id: series.id })
        .from(series)
        .where(seen(viewer, eq(series.id, seriesId))),
      ...this.page(where, sort, limit, offset),
    ]);
    if (found.length === 0) return null;
    return pageOf(rows, counted);
  }

  /** A page of the releases `where` selects, and their count: two statements for the caller's batch. */
  private page(where: SQL | undefined, sort: InboxSort, limit: number, offset: number) {
    return [
      selectReleases(this.db)
        .where(where)
        .orderBy(...orderOf(sort))
        .limit(limit)
        .offset(offset),
      this.db
        .select({ total: count() })
        .from(releaseLedger)
        .innerJoin(series, eq(series.id, releaseLedger.seriesId))
        .where(where),
    ] as const;
  }

  /** One release the viewer may see. */
  async get(viewer: Viewer, id: string): Promise<ReleaseRow | undefined> {
    return (await selectReleases(this.db)
      .where(seen(viewer, eq(releaseLedger.id, id)))
      .get()) as ReleaseRow | undefined;
  }

  /**
   * Sets the state of the releases among `ids` the viewer may see, then reads the first back (for the
   * one-release routes), in one batch. Returns the ids changed.
   */
  async setState(viewer: Viewer, ids: readonly string[], state: ReleaseState) {
    const [changed, first] = await this.db.batch([
      this.db
        .update(releaseLedger)
        .set({ state })
        .where(and(inIds(releaseLedger.id, ids), visibleRelease(viewer)))
        .returning({ id: releaseLedger.id, seriesId: releaseLedger.seriesId }),
      selectReleases(this.db).where(seen(viewer, eq(releaseLedger.id, ids[0] ?? ''))),
    ]);
    return { changed, first: (first[0] as ReleaseRow | undefined) ?? null };
  }

  /**
   * Deletes the releases among `ids` the viewer may see; their next poll records them again (the series'
   * high-water marks drop below them first, in the same batch). Returns the ids deleted.
   */
  async delete(viewer: Viewer, ids: readonly string[]) {
    const chosen = and(inIds(releaseLedger.id, ids), visibleRelease(viewer)) as SQL;
    const [, gone] = await this.db.batch([
      ReleaseLedgerRepository.marksBelowStatement(this.db, chosen),
      this.db.delete(releaseLedger).where(chosen).returning({ id: releaseLedger.id, seriesId: releaseLedger.seriesId }),
    ]);
    return gone;
  }

  /**
   * The series' high-water marks (poll-batch.ts) dropped just below the lowest of the releases `which` selects,
   * which are about to be deleted: a release is recorded only above the marks, and a deleted one is to come
   * back at the next poll (Codex-rs: deleting is how a user gets a release back). Releases still in the
   * ledger are not recorded twice (source and release id are unique).
   */
  static marksBelowStatement(db: Database, which: SQL) {
    return db
      .update(seriesTracking)
      .set({
        latestKnownChapter: sql`CASE WHEN m.c IS NULL OR ${seriesTracking.latestKnownChapter} IS NULL
          THEN ${seriesTracking.latestKnownChapter} ELSE min(${seriesTracking.latestKnownChapter}, m.c - 0.001) END`,
        latestKnownVolume: sql`CASE WHEN m.v IS NULL OR ${seriesTracking.latestKnownVolume} IS NULL
          THEN ${seriesTracking.latestKnownVolume} ELSE min(${seriesTracking.latestKnownVolume}, m.v - 1) END`,
      })
      .from(
        sql`(SELECT ${releaseLedger.seriesId} AS series_id, min(${releaseLedger.chapterStart}) AS c,
          min(${releaseLedger.volumeStart}) AS v FROM ${releaseLedger} WHERE ${which} GROUP BY ${releaseLedger.seriesId}) AS m`,
      )
      .where(sql`${seriesTracking.seriesId} = m.series_id`);
  }

  /**
   * The statement recording a poll's releases: one INSERT … SELECT over a JSON array, each new one as
   * acquired when the library already holds it (release-ownership.ts), releases already in the ledger
   * (same source and external id) left as they are. Returns the rows it recorded.
   */
  insertStatement(rows: readonly NewRelease[]) {
    const j = (field: keyof NewRelease) => sql.raw(`r.value ->> '${field}'`);
    const held = heldByLibrary({
      seriesId: j('seriesId'),
      chapterStart: j('chapterStart'),
      chapter: j('chapter'),
      volumeStart: j('volumeStart'),
      volume: j('volume'),
    });
    // Columns in the table's order (drizzle names them all); a query builder, as a D1 batch needs.
    return this.db
      .insert(releaseLedger)
      .select(
        sql`SELECT ${j('id')}, ${j('seriesId')}, ${j('sourceId')}, ${j('externalReleaseId')}, ${j('chapterStart')},
          ${j('chapter')}, ${j('volumeStart')}, ${j('volume')}, ${j('language')}, ${j('groupOrUploader')},
          ${j('payloadUrl')}, ${j('confidence')}, CASE WHEN ${held} THEN 'marked_acquired' ELSE 'announced' END,
          CASE WHEN json_type(r.value, '$.metadata') = 'object' THEN r.value -> 'metadata' END, ${j('observedAt')},
          ${j('releasedAt')}, ${j('observedAt')}
        FROM json_each(${JSON.stringify(rows)}) r WHERE true`,
      )
      .onConflictDoNothing({ target: [releaseLedger.sourceId, releaseLedger.externalReleaseId] })
      .returning({
        id: releaseLedger.id,
        seriesId: releaseLedger.seriesId,
        sourceId: releaseLedger.sourceId,
        chapter: releaseLedger.chapter,
        volume: releaseLedger.volume,
        language: releaseLedger.language,
        state: releaseLedger.state,
      });
  }

  /**
   * Releases announced for the series `seriesIds` selects (a subquery, series-read-progress.ts `seriesIdList`)
   * that the library now holds become acquired: part of the batch in which a scan brings the series up to date.
   */
  static acquireHeldStatement(db: Database, seriesIds: SQL) {
    return db
      .update(releaseLedger)
      .set({ state: 'marked_acquired' })
      .where(
        and(
          eq(releaseLedger.state, 'announced'),
          sql`${releaseLedger.seriesId} IN (${seriesIds})`,
          heldByLibrary({
            seriesId: sql`${releaseLedger.seriesId}`,
            chapterStart: sql`${releaseLedger.chapterStart}`,
            chapter: sql`${releaseLedger.chapter}`,
            volumeStart: sql`${releaseLedger.volumeStart}`,
            volume: sql`${releaseLedger.volume}`,
          }),
        ),
      );
  }
}
