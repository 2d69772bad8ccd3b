/**
 * How a series is followed (docs/DECISIONS.md §Release tracking; Codex-rs `series_tracking`,
 * `series_aliases`, `series_external_ids`): its tracking row, aliases, ids at the providers and where each
 * source's polls of it stand. Reads are one batch for a viewer (a series the viewer may not see reads as
 * missing); a change is one batch that ends by reading the result back. The rows go with their series
 * (`forgetTrackingStatements`), with a library or a purged trash.
 */
import { and, asc, eq, inArray, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Database } from '../db/client';
import {
  books,
  releaseLedger,
  releasePolls,
  releaseSources,
  series,
  seriesAliases,
  seriesExternalIds,
  seriesTracking,
} from '../db/schema';
import { newId } from '../lib/ids';
import { liveVisibleSeries } from './live-visible';
import { type ClaimedPoll, type PollState, pollStateColumns } from './release-polls.repository';
import type { Viewer } from './visibility';

type Statement = BatchItem<'sqlite'>;

export type TrackingRow = typeof seriesTracking.$inferSelect;
export type AliasRow = typeof seriesAliases.$inferSelect;
export type ExternalIdRow = typeof seriesExternalIds.$inferSelect;

/** One source's polls of the series. */
export interface PollRow extends PollState {
  sourceId: string;
  provider: string;
  displayName: string;
  enabled: boolean;
  nextPollAt: string;
}

export interface TrackedSeries {
  id: string;
  libraryId: string;
  title: string;
  localMaxChapter: number | null;
  localMaxVolume: number | null;
}

export interface TrackingView {
  series: TrackedSeries;
  tracking: TrackingRow | null;
  aliases: AliasRow[];
  externalIds: ExternalIdRow[];
  polls: PollRow[];
}

/** What turning tracking on reads to seed it: the series' other titles and every web link of it and its books. */
export interface SeedInputs {
  titleSort: string;
  alternateTitles: string[];
  links: string[];
}

/** The tracking columns a change writes (the whole row: the service merged the request into what was there). */
export type TrackingValues = Pick<
  TrackingRow,
  | 'tracked'
  | 'chapterTracking'
  | 'volumeTracking'
  | 'latestKnownChapter'
  | 'latestKnownVolume'
  | 'languages'
  | 'pollIntervalOverrideS'
>;

export interface TrackingChange {
  values: TrackingValues;
  /** Aliases and ids to add from the series' metadata (turning tracking on); existing ones are kept. */
  seedAliases: Array<{ alias: string; normalized: string }>;
  seedExternalIds: Array<{ source: string; externalId: string; externalUrl: string }>;
  /** `start`: every source polls the series now; `stop`: no source does; `keep`: as they were. */
  polls: 'start' | 'stop' | 'keep';
  now: string;
}

export class SeriesTrackingRepository {
  constructor(private readonly db: Database) {}

  /** The series as the viewer sees it: no row when it is hidden from them, deleted or unknown. */
  private head(viewer: Viewer, seriesId: string) {
    return this.db
      .select({
        id: series.id,
        libraryId: series.libraryId,
        title: series.title,
        localMaxChapter: series.localMaxChapter,
        localMaxVolume: series.localMaxVolume,
      })
      .from(series)
      .where(liveVisibleSeries(viewer, seriesId));
  }

  /**
   * True while the series is one the viewer sees: every write below carries it, so a change and the read that
   * tells whether the series is there are one batch (docs/DECISIONS.md §Far readers, "Writes wait for the check").
   */
  private seen(viewer: Viewer, seriesId: string): SQL {
    return sql`EXISTS (SELECT 1 FROM ${series} WHERE ${liveVisibleSeries(viewer, seriesId)})`;
  }

  /** The statements of a `TrackingView` (the series' row decides whether the rest is shown). */
  private viewStatements(viewer: Viewer, seriesId: string) {
    return [
      this.db
        .select({
          series: {
            id: series.id,
            libraryId: series.libraryId,
            title: series.title,
            localMaxChapter: series.localMaxChapter,
            localMaxVolume: series.localMaxVolume,
          },
          tracking: seriesTracking,
        })
        .from(series)
        .leftJoin(seriesTracking, eq(seriesTracking.seriesId, series.id))
        .where(liveVisibleSeries(viewer, seriesId)),
      this.db
        .select()
        .from(seriesAliases)
        .where(eq(seriesAliases.seriesId, seriesId))
        .orderBy(asc(seriesAliases.createdAt), asc(seriesAliases.alias)),
      this.db
        .select()
        .from(seriesExternalIds)
        .where(eq(seriesExternalIds.seriesId, seriesId))
        .orderBy(asc(seriesExternalIds.source)),
      this.db
        .select({
          sourceId: releasePolls.sourceId,
          provider: releaseSources.provider,
          displayName: releaseSources.displayName,
          enabled: releaseSources.enabled,
          nextPollAt: releasePolls.nextPollAt,
          ...pollStateColumns,
        })
        .from(releasePolls)
        .innerJoin(releaseSources, eq(releaseSources.id, releasePolls.sourceId))
        .where(eq(releasePolls.seriesId, seriesId))
        .orderBy(asc(releaseSources.displayName)),
    ] as const;
  }

  private toView(results: readonly unknown[]): TrackingView | null {
    const [head, aliases, externalIds, polls] = results as [
      Array<{ series: TrackedSeries; tracking: TrackingRow | null }>,
      AliasRow[],
      ExternalIdRow[],
      PollRow[],
    ];
    const row = head[0];
    if (!row) return null;
    return { series: row.series, tracking: row.tracking, aliases, externalIds, polls };
  }

  /** The series' tracking as the viewer may see it; null when the series is not one they see. */
  async view(viewer: Viewer, seriesId: string): Promise<TrackingView | null> {
    return this.toView(await this.db.batch(this.viewStatements(viewer, seriesId)));
  }

  /** The view and what seeding needs (the series' titles, its and its books' links), in one batch. */
  async viewWithSeedInputs(viewer: Viewer, seriesId: string): Promise<(TrackingView & { seed: SeedInputs }) | null> {
    const results = await this.db.batch([
      ...this.viewStatements(viewer, seriesId),
      this.db
        .select({ titleSort: series.titleSort, alternateTitles: series.alternateTitles, links: series.links })
        .from(series)
        .where(eq(series.id, seriesId)),
      // (A query builder, not db.all: drizzle's D1 batch cannot bind a raw statement's parameters.)
      this.db
        .selectDistinct({ url: sql<string | null>`l.value ->> 'url'` })
        .from(sql`${books} b, json_each(b.links) l`)
        .where(sql`b.series_id = ${seriesId} AND b.deleted_at IS NULL`),
    ]);
    const view = this.toView(results);
    const own = (
      results[4] as Array<{
        titleSort: string;
        alternateTitles: Array<{ title: string }>;
        links: Array<{ url: string }>;
      }>
    )[0];
    if (!view || !own) return null;
    const bookLinks = (results[5] as Array<{ url: string | null }>).flatMap((r) => (r.url ? [r.url] : []));
    return {
      ...view,
      seed: {
        titleSort: own.titleSort,
        alternateTitles: own.alternateTitles.map((t) => t.title),
        links: [...own.links.map((l) => l.url), ...bookLinks],
      },
    };
  }

  /** Writes a change (series known to be visible) and reads the result back, in one batch. */
  async change(viewer: Viewer, seriesId: string, change: TrackingChange): Promise<TrackingView> {
    const { values, now } = change;
    const writes: Statement[] = [
      this.db
        .insert(seriesTracking)
        .values({ seriesId, ...values, createdAt: now, updatedAt: now })
        .onConflictDoUpdate({ target: seriesTracking.seriesId, set: { ...values, updatedAt: now } }),
    ];
    if (change.seedAliases.length > 0) {
      writes.push(
        this.db
          .insert(seriesAliases)
          .values(
            change.seedAliases.map((a) => ({
              id: newId(),
              seriesId,
              ...a,
              source: 'metadata' as const,
              createdAt: now,
            })),
          )
          .onConflictDoNothing(),
      );
    }
    if (change.seedExternalIds.length > 0) {
      writes.push(
        this.db
          .insert(seriesExternalIds)
          .values(
            change.seedExternalIds.map((e) => ({
              id: newId(),
              seriesId,
              ...e,
              origin: 'metadata' as const,
              createdAt: now,
              updatedAt: now,
            })),
          )
          .onConflictDoNothing(),
      );
    }
    if (change.polls === 'start') {
      writes.push(
        this.db
          .insert(releasePolls)
          .select(
            sql`SELECT ${seriesId}, ${releaseSources.id}, ${now}, NULL, NULL, NULL, NULL, NULL, NULL FROM ${releaseSources} WHERE true`,
          )
          .onConflictDoUpdate({ target: [releasePolls.seriesId, releasePolls.sourceId], set: { nextPollAt: now } }),
      );
    } else if (change.polls === 'stop') {
      writes.push(this.db.delete(releasePolls).where(eq(releasePolls.seriesId, seriesId)));
    }
    const results = await this.db.batch([
      ...(writes as [Statement, ...Statement[]]),
      ...this.viewStatements(viewer, seriesId),
    ]);
    return this.toView(results.slice(writes.length)) as TrackingView;
  }

  /**
   * Adds an alias to a series the viewer sees, in one batch; null when they do not see it. `created` is false when
   * the series already had one with the same normalized form (then `alias` is that one).
   */
  async addAlias(
    viewer: Viewer,
    seriesId: string,
    alias: { alias: string; normalized: string; source: AliasRow['source'] },
    now: string,
  ): Promise<{ series: TrackedSeries; created: boolean; alias: AliasRow } | null> {
    const [head, inserted, existing] = await this.db.batch([
      this.head(viewer, seriesId),
      // Columns in the table's order (an INSERT … SELECT names them all).
      this.db
        .insert(seriesAliases)
        .select(
          sql`SELECT ${newId()}, ${seriesId}, ${alias.alias}, ${alias.normalized}, ${alias.source}, ${now}
            WHERE ${this.seen(viewer, seriesId)}`,
        )
        .onConflictDoNothing()
        .returning({ id: seriesAliases.id }),
      this.db
        .select()
        .from(seriesAliases)
        .where(and(eq(seriesAliases.seriesId, seriesId), eq(seriesAliases.normalized, alias.normalized))),
    ]);
    const found = head[0];
    if (!found) return null;
    return { series: found, created: inserted.length > 0, alias: existing[0] as AliasRow };
  }

  /** Removes one of the aliases of a series the viewer sees (`removed`: it had it); null when they do not see it. */
  async deleteAlias(viewer: Viewer, seriesId: string, aliasId: string) {
    const [head, gone] = await this.db.batch([
      this.head(viewer, seriesId),
      this.db
        .delete(seriesAliases)
        .where(and(eq(seriesAliases.id, aliasId), eq(seriesAliases.seriesId, seriesId), this.seen(viewer, seriesId)))
        .returning({ id: seriesAliases.id }),
    ]);
    return head[0] ? { series: head[0], removed: gone.length > 0 } : null;
  }

  /**
   * Sets the id at a provider of a series the viewer sees (replacing the one it had), and makes that provider's
   * poll of it due now with the new id: one batch. Null when they do not see it.
   */
  async setExternalId(
    viewer: Viewer,
    seriesId: string,
    value: { source: string; externalId: string; externalUrl: string; origin: ExternalIdRow['origin'] },
    now: string,
  ): Promise<{ series: TrackedSeries; saved: ExternalIdRow } | null> {
    const seen = this.seen(viewer, seriesId);
    const [head, saved] = await this.db.batch([
      this.head(viewer, seriesId),
      this.db
        .insert(seriesExternalIds)
        .select(
          sql`SELECT ${newId()}, ${seriesId}, ${value.source}, ${value.externalId}, ${value.externalUrl},
            ${value.origin}, ${now}, ${now} WHERE ${seen}`,
        )
        .onConflictDoUpdate({
          target: [seriesExternalIds.seriesId, seriesExternalIds.source],
          set: { externalId: value.externalId, externalUrl: value.externalUrl, origin: value.origin, updatedAt: now },
        })
        .returning(),
      this.db
        .update(releasePolls)
        .set({ nextPollAt: now, matchedId: null })
        .where(
          and(
            eq(releasePolls.seriesId, seriesId),
            inArray(
              releasePolls.sourceId,
              this.db
                .select({ id: releaseSources.id })
                .from(releaseSources)
                .where(eq(releaseSources.provider, value.source)),
            ),
            seen,
          ),
        ),
    ]);
    return head[0] ? { series: head[0], saved: saved[0] as ExternalIdRow } : null;
  }

  /** Removes a provider id of a series the viewer sees (`removed`: it had it); null when they do not see it. */
  async deleteExternalId(viewer: Viewer, seriesId: string, externalIdId: string) {
    const [head, gone] = await this.db.batch([
      this.head(viewer, seriesId),
      this.db
        .delete(seriesExternalIds)
        .where(
          and(
            eq(seriesExternalIds.id, externalIdId),
            eq(seriesExternalIds.seriesId, seriesId),
            this.seen(viewer, seriesId),
          ),
        )
        .returning({ id: seriesExternalIds.id }),
    ]);
    return head[0] ? { series: head[0], removed: gone.length > 0 } : null;
  }

  /**
   * Claims every enabled source's poll of a series the viewer sees, if it is tracked, until `leaseUntil` (a
   * poll-now): one batch with the series' tracking view. Null when they do not see it.
   */
  async claimPolls(
    viewer: Viewer,
    seriesId: string,
    leaseUntil: string,
  ): Promise<{ view: TrackingView; claimed: ClaimedPoll[] } | null> {
    const statements = this.viewStatements(viewer, seriesId);
    const results = await this.db.batch([
      ...statements,
      this.db
        .update(releasePolls)
        .set({ nextPollAt: leaseUntil })
        .where(
          and(
            eq(releasePolls.seriesId, seriesId),
            inArray(
              releasePolls.sourceId,
              this.db.select({ id: releaseSources.id }).from(releaseSources).where(eq(releaseSources.enabled, true)),
            ),
            this.seen(viewer, seriesId),
            sql`EXISTS (SELECT 1 FROM ${seriesTracking} WHERE ${seriesTracking.seriesId} = ${seriesId}
              AND ${seriesTracking.tracked})`,
          ),
        )
        .returning({ seriesId: releasePolls.seriesId, sourceId: releasePolls.sourceId }),
    ]);
    const view = this.toView(results.slice(0, statements.length));
    return view ? { view, claimed: results[statements.length] as ClaimedPoll[] } : null;
  }
}

/**
 * Everything release tracking keeps about the series `seriesIds` selects, removed with them (the foreign keys
 * cascade; these make a libSQL connection without `foreign_keys` enforcement leave no orphans either).
 */
export function forgetTrackingStatements(db: Database, seriesIds: SQLWrapper): Statement[] {
  return [
    db.delete(releaseLedger).where(inArray(releaseLedger.seriesId, seriesIds)),
    db.delete(releasePolls).where(inArray(releasePolls.seriesId, seriesIds)),
    db.delete(seriesAliases).where(inArray(seriesAliases.seriesId, seriesIds)),
    db.delete(seriesExternalIds).where(inArray(seriesExternalIds.seriesId, seriesIds)),
    db.delete(seriesTracking).where(inArray(seriesTracking.seriesId, seriesIds)),
  ];
}
