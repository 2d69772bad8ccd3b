/**
 * Polling at scale (issue 32, docs/DECISIONS.md §Release tracking, "Polling"): `release_polls` holds, per
 * tracked series and source, when the series is next due. The cron claims due rows — moving them a lease
 * ahead in the same statement, so two ticks never hand out one row twice and a lost message is due again
 * once its lease runs out — and queues them; the release-poll consumer reads what a batch of messages needs
 * in one D1 batch and records everything it learnt in one more: poll rows, releases, the series' upstream
 * counts and high-water marks, the sources' state. A fixed number of statements per batch, whatever its size.
 */
import { and, eq, isNull, lte, or, type SQL, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Database } from '../db/client';
import {
  books,
  releasePolls,
  releaseSources,
  series,
  seriesAliases,
  seriesExternalIds,
  seriesTracking,
} from '../db/schema';
import { inIds } from './catalog-sql';
import { type NewRelease, type RecordedRelease, ReleaseLedgerRepository } from './release-ledger.repository';

type Statement = BatchItem<'sqlite'>;

export interface ClaimedPoll {
  seriesId: string;
  sourceId: string;
}

export type PollSourceRow = Pick<
  typeof releaseSources.$inferSelect,
  'id' | 'provider' | 'displayName' | 'enabled' | 'pollIntervalS' | 'backoffUntil'
>;

export interface PollSeriesRow {
  id: string;
  libraryId: string;
  title: string;
  titleSort: string;
  alternateTitles: Array<{ title: string }>;
  links: Array<{ url: string }>;
  deleted: boolean;
  tracked: boolean | null;
  chapterTracking: boolean | null;
  volumeTracking: boolean | null;
  latestKnownChapter: number | null;
  latestKnownVolume: number | null;
  languages: string[] | null;
  pollIntervalOverrideS: number | null;
}

/**
 * What the last poll of a series at a source found, selected alike wherever `release_polls` is read: by the
 * poll consumer (to weigh what a provider says now) and by a series' tracking view (to show it).
 */
export const pollStateColumns = {
  lastPolledAt: releasePolls.lastPolledAt,
  lastError: releasePolls.lastError,
  matchedId: releasePolls.matchedId,
  chapterCount: releasePolls.chapterCount,
  volumeCount: releasePolls.volumeCount,
  status: releasePolls.status,
};

export type PollState = Pick<typeof releasePolls.$inferSelect, keyof typeof pollStateColumns>;

export interface PollStateRow extends PollState {
  seriesId: string;
  sourceId: string;
}

/** What one consumer batch reads before asking any provider. */
export interface PollBatchInputs {
  sources: PollSourceRow[];
  series: PollSeriesRow[];
  aliases: Array<{ seriesId: string; alias: string }>;
  externalIds: Array<{ seriesId: string; source: string; externalId: string }>;
  polls: PollStateRow[];
  /** Web links of the series' books on the providers' hosts (ComicInfo `Web`). */
  bookLinks: Array<{ seriesId: string; url: string }>;
}

/** A poll row as the batch leaves it. */
export interface PollOutcome extends PollStateRow {
  nextPollAt: string;
}

export interface SourceOutcome {
  id: string;
  lastPolledAt: string;
  /** Null clears the error (a batch without failures). */
  lastError: string | null;
  lastSummary: string;
  backoffUntil: string | null;
}

export interface PollBatchRecord {
  polls: PollOutcome[];
  /** Ids read from the series' web links, kept as metadata ids (a user's own id is never replaced). */
  metadataIds: Array<{ id: string; seriesId: string; source: string; externalId: string; externalUrl: string }>;
  releases: NewRelease[];
  /** New high-water marks (a mark only ever rises). */
  highWater: Array<{ seriesId: string; chapter: number | null; volume: number | null }>;
  sources: SourceOutcome[];
  now: string;
}

/** D1 caps a statement's bound values at 100 and its size at 100 KB; JSON parameters stay well inside. */
const ROWS_PER_STATEMENT = 200;

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const field = (name: string) => sql.raw(`j.value ->> '${name}'`);

export class ReleasePollsRepository {
  constructor(private readonly db: Database) {}

  /** The sources that may be polled now: enabled, not waiting out a provider's backoff. */
  async pollableSources(now: string): Promise<Array<{ id: string; provider: string }>> {
    return this.db
      .select({ id: releaseSources.id, provider: releaseSources.provider })
      .from(releaseSources)
      .where(
        and(
          eq(releaseSources.enabled, true),
          or(isNull(releaseSources.backoffUntil), lte(releaseSources.backoffUntil, now)),
        ),
      );
  }

  /**
   * Claims up to `limit` of a source's due polls, oldest first, moving them to `leaseUntil` in the same
   * statement (an index range of `release_polls_due_idx`).
   */
  async claimDue(sourceId: string, now: string, leaseUntil: string, limit: number): Promise<ClaimedPoll[]> {
    return this.db.all<ClaimedPoll>(sql`
      UPDATE ${releasePolls} SET next_poll_at = ${leaseUntil}
      WHERE rowid IN (
        SELECT rowid FROM ${releasePolls} WHERE source_id = ${sourceId} AND next_poll_at <= ${now}
        ORDER BY next_poll_at LIMIT ${limit})
      RETURNING series_id AS seriesId, source_id AS sourceId`);
  }

  /** Everything a batch of polls needs, in one D1 batch (`linkHosts`: the providers' web hosts). */
  async load(sourceIds: readonly string[], seriesIds: readonly string[], linkHosts: readonly string[]) {
    const hostMatch = or(...linkHosts.map((host) => sql`l.value ->> 'url' LIKE ${`%${host}/%`}`)) ?? sql`false`;
    const statements = [
      this.db
        .select({
          id: releaseSources.id,
          provider: releaseSources.provider,
          displayName: releaseSources.displayName,
          enabled: releaseSources.enabled,
          pollIntervalS: releaseSources.pollIntervalS,
          backoffUntil: releaseSources.backoffUntil,
        })
        .from(releaseSources)
        .where(inIds(releaseSources.id, sourceIds)),
      this.db
        .select({
          id: series.id,
          libraryId: series.libraryId,
          title: series.title,
          titleSort: series.titleSort,
          alternateTitles: series.alternateTitles,
          links: series.links,
          deleted: sql<boolean>`${series.deletedAt} IS NOT NULL`.mapWith(Boolean),
          tracked: seriesTracking.tracked,
          chapterTracking: seriesTracking.chapterTracking,
          volumeTracking: seriesTracking.volumeTracking,
          latestKnownChapter: seriesTracking.latestKnownChapter,
          latestKnownVolume: seriesTracking.latestKnownVolume,
          languages: seriesTracking.languages,
          pollIntervalOverrideS: seriesTracking.pollIntervalOverrideS,
        })
        .from(series)
        .leftJoin(seriesTracking, eq(seriesTracking.seriesId, series.id))
        .where(inIds(series.id, seriesIds)),
      this.db
        .select({ seriesId: seriesAliases.seriesId, alias: seriesAliases.alias })
        .from(seriesAliases)
        .where(inIds(seriesAliases.seriesId, seriesIds)),
      this.db
        .select({
          seriesId: seriesExternalIds.seriesId,
          source: seriesExternalIds.source,
          externalId: seriesExternalIds.externalId,
        })
        .from(seriesExternalIds)
        .where(inIds(seriesExternalIds.seriesId, seriesIds)),
      this.db
        .select({
          seriesId: releasePolls.seriesId,
          sourceId: releasePolls.sourceId,
          ...pollStateColumns,
        })
        .from(releasePolls)
        .where(and(inIds(releasePolls.seriesId, seriesIds), inIds(releasePolls.sourceId, sourceIds))),
      // (A query builder, not db.all: drizzle's D1 batch cannot bind a raw statement's parameters.)
      this.db
        .selectDistinct({ seriesId: sql<string>`b.series_id`, url: sql<string>`l.value ->> 'url'` })
        .from(sql`${books} b, json_each(b.links) l`)
        .where(
          sql`b.series_id IN (SELECT value FROM json_each(${JSON.stringify(seriesIds)})) AND b.deleted_at IS NULL AND ${hostMatch}`,
        ),
    ] as const;
    const [sources, seriesRows, aliases, externalIds, polls, bookLinks] = await this.db.batch(statements);
    return {
      sources,
      series: seriesRows as PollSeriesRow[],
      aliases,
      externalIds,
      polls,
      bookLinks,
      /** How many statements the read took (the bench counts D1 statements per series). */
      statements: statements.length,
    } satisfies PollBatchInputs & { statements: number };
  }

  /**
   * Records a batch's outcome in one D1 batch; returns the releases it recorded (not those already known) and
   * how many statements that took.
   */
  async record(record: PollBatchRecord): Promise<{ recorded: RecordedRelease[]; statements: number }> {
    const ledger = new ReleaseLedgerRepository(this.db);
    const statements: Statement[] = [];
    const releaseStatements: Statement[] = [];
    for (const part of chunk(record.polls, ROWS_PER_STATEMENT)) {
      statements.push(
        this.db
          .update(releasePolls)
          .set({
            nextPollAt: sql`${field('nextPollAt')}`,
            lastPolledAt: sql`${field('lastPolledAt')}`,
            lastError: sql`${field('lastError')}`,
            matchedId: sql`${field('matchedId')}`,
            chapterCount: sql`${field('chapterCount')}`,
            volumeCount: sql`${field('volumeCount')}`,
            status: sql`${field('status')}`,
          })
          .from(sql`json_each(${JSON.stringify(part)}) AS j`)
          .where(
            and(
              sql`${releasePolls.seriesId} = ${field('seriesId')}`,
              sql`${releasePolls.sourceId} = ${field('sourceId')}`,
            ),
          ),
      );
    }
    if (record.metadataIds.length > 0) {
      statements.push(
        this.db
          .insert(seriesExternalIds)
          .values(
            record.metadataIds.map((m) => ({
              ...m,
              origin: 'metadata' as const,
              createdAt: record.now,
              updatedAt: record.now,
            })),
          )
          .onConflictDoNothing(),
      );
    }
    for (const part of chunk(record.releases, ROWS_PER_STATEMENT)) {
      releaseStatements.push(ledger.insertStatement(part));
    }
    for (const part of chunk(record.highWater, ROWS_PER_STATEMENT)) {
      const rise = (column: SQL, value: SQL) =>
        sql`CASE WHEN ${value} IS NOT NULL AND (${column} IS NULL OR ${value} > ${column}) THEN ${value} ELSE ${column} END`;
      statements.push(
        this.db
          .update(seriesTracking)
          .set({
            latestKnownChapter: rise(sql`${seriesTracking.latestKnownChapter}`, field('chapter')),
            latestKnownVolume: rise(sql`${seriesTracking.latestKnownVolume}`, field('volume')),
          })
          .from(sql`json_each(${JSON.stringify(part)}) AS j`)
          .where(sql`${seriesTracking.seriesId} = ${field('seriesId')}`),
      );
    }
    // The gap's provider: of the series' sources that know a count, the one furthest ahead (chapters, then
    // volumes); its name and counts, all from one source, on the series' tracking row.
    const polledSeries = [...new Set(record.polls.map((p) => p.seriesId))];
    for (const part of chunk(polledSeries, ROWS_PER_STATEMENT * 2)) {
      const best = (column: string) =>
        sql.raw(`(SELECT ${column} FROM release_polls bp JOIN release_sources bs ON bs.id = bp.source_id
        WHERE bp.series_id = series_tracking.series_id AND (bp.chapter_count IS NOT NULL OR bp.volume_count IS NOT NULL)
        ORDER BY coalesce(bp.chapter_count, -1) DESC, coalesce(bp.volume_count, -1) DESC, bs.display_name LIMIT 1)`);
      statements.push(
        this.db
          .update(seriesTracking)
          .set({
            providerName: sql`${best('bs.display_name')}`,
            providerChapterCount: sql`${best('bp.chapter_count')}`,
            providerVolumeCount: sql`${best('bp.volume_count')}`,
            providerStatus: sql`${best('bp.status')}`,
            updatedAt: record.now,
          })
          .where(inIds(seriesTracking.seriesId, part)),
      );
    }
    for (const source of record.sources) {
      statements.push(
        this.db
          .update(releaseSources)
          .set({
            lastPolledAt: source.lastPolledAt,
            lastError: source.lastError,
            ...(source.lastError ? { lastErrorAt: source.lastPolledAt } : {}),
            lastSummary: source.lastSummary,
            backoffUntil: source.backoffUntil,
          })
          .where(eq(releaseSources.id, source.id)),
      );
    }
    const all = [...releaseStatements, ...statements];
    if (all.length === 0) return { recorded: [], statements: 0 };
    const results = await this.db.batch(all as [Statement, ...Statement[]]);
    return { recorded: results.slice(0, releaseStatements.length).flat() as RecordedRelease[], statements: all.length };
  }
}
