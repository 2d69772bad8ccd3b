/**
 * How a series is followed (docs/DECISIONS.md §Release tracking; Codex-rs `series_tracking`,
 * `series_aliases`, `series_external_ids`): its tracking row, aliases, ids at the providers and where each
 * source's polls of it stand. Reads are one batch for a viewer (a series the viewer may not see reads as
 * missing); a change is one batch that ends by reading the result back. The rows go with their series
 * (`forgetTrackingStatements`), with a library or a purged trash.
 */
import { and, asc, eq, inArray, type SQLWrapper, sql } from 'drizzle-orm';
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
import { type PollState, pollStateColumns } from './release-polls.repository';
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

  /** Adds an alias; false when the series already had one with the same normalized form. */
  async addAlias(
    seriesId: string,
    alias: { alias: string; normalized: string; source: AliasRow['source'] },
    now: string,
  ) {
    const [inserted, existing] = await this.db.batch([
      this.db
        .insert(seriesAliases)
        .values({ id: newId(), seriesId, ...alias, createdAt: now })
        .onConflictDoNothing()
        .returning({ id: seriesAliases.id }),
      this.db
        .select()
        .from(seriesAliases)
        .where(and(eq(seriesAliases.seriesId, seriesId), eq(seriesAliases.normalized, alias.normalized))),
    ]);
    return { created: inserted.length > 0, alias: existing[0] as AliasRow };
  }

  /** Removes one of the series' aliases; false when it has no such alias. */
  async deleteAlias(seriesId: string, aliasId: string): Promise<boolean> {
    const gone = await this.db
      .delete(seriesAliases)
      .where(and(eq(seriesAliases.id, aliasId), eq(seriesAliases.seriesId, seriesId)))
      .returning({ id: seriesAliases.id });
    return gone.length > 0;
  }

  /**
   * Sets the series' id at a provider (replacing the one it had), and makes that provider's poll of it due
   * now with the new id: one batch.
   */
  async setExternalId(
    seriesId: string,
    value: { source: string; externalId: string; externalUrl: string; origin: ExternalIdRow['origin'] },
    now: string,
  ): Promise<ExternalIdRow> {
    const [saved] = await this.db.batch([
      this.db
        .insert(seriesExternalIds)
        .values({ id: newId(), seriesId, ...value, createdAt: now, updatedAt: now })
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
          ),
        ),
    ]);
    return saved[0] as ExternalIdRow;
  }

  async deleteExternalId(seriesId: string, externalIdId: string): Promise<boolean> {
    const gone = await this.db
      .delete(seriesExternalIds)
      .where(and(eq(seriesExternalIds.id, externalIdId), eq(seriesExternalIds.seriesId, seriesId)))
      .returning({ id: seriesExternalIds.id });
    return gone.length > 0;
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
