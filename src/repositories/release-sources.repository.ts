/**
 * The release sources (Codex-rs `release_sources`): one row per built-in provider, which the admin turns on or
 * off, paces (seconds between two polls of a series), polls now or resets. What a poll learns about a source
 * (when it last polled, its error, a provider's request to wait) is written by release-polls.repository.ts in
 * the poll's batch.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { releaseLedger, releasePolls, releaseSources } from '../db/schema';
import { ReleaseLedgerRepository } from './release-ledger.repository';

export type SourceRow = typeof releaseSources.$inferSelect & { trackedSeries: number };

export type SourceChanges = Partial<
  Pick<typeof releaseSources.$inferInsert, 'displayName' | 'enabled' | 'pollIntervalS'>
>;

const sourceColumns = {
  id: releaseSources.id,
  provider: releaseSources.provider,
  sourceKey: releaseSources.sourceKey,
  displayName: releaseSources.displayName,
  kind: releaseSources.kind,
  enabled: releaseSources.enabled,
  pollIntervalS: releaseSources.pollIntervalS,
  lastPolledAt: releaseSources.lastPolledAt,
  lastError: releaseSources.lastError,
  lastErrorAt: releaseSources.lastErrorAt,
  lastSummary: releaseSources.lastSummary,
  backoffUntil: releaseSources.backoffUntil,
  createdAt: releaseSources.createdAt,
  updatedAt: releaseSources.updatedAt,
  /** Series the source polls (tracked series have a poll row per source). */
  trackedSeries: sql<number>`(SELECT count(*) FROM ${releasePolls} p WHERE p.source_id = ${releaseSources.id})`.mapWith(
    Number,
  ),
};

export class ReleaseSourcesRepository {
  constructor(private readonly db: Database) {}

  async list(): Promise<SourceRow[]> {
    return this.db.select(sourceColumns).from(releaseSources).orderBy(releaseSources.displayName);
  }

  /** Changes a source; a new interval applies from each series' next poll. Returns the source, or undefined. */
  async update(id: string, changes: SourceChanges, now: string): Promise<SourceRow | undefined> {
    const [, after] = await this.db.batch([
      this.db
        .update(releaseSources)
        .set({ ...changes, updatedAt: now })
        .where(eq(releaseSources.id, id)),
      this.db.select(sourceColumns).from(releaseSources).where(eq(releaseSources.id, id)),
    ]);
    return after[0];
  }

  /**
   * A clean slate (Codex-rs "reset"): the source's releases are deleted and what its polls learnt forgotten
   * (last poll, error, summary, backoff), the series' high-water marks lowered below its releases; its settings
   * stay. The next poll records them anew. One batch, with the source read back; undefined when there is no such
   * source (then nothing matched). Returns how many releases went.
   */
  async reset(id: string, now: string): Promise<{ source: SourceRow; deleted: number } | undefined> {
    const [, gone, , , after] = await this.db.batch([
      ReleaseLedgerRepository.marksBelowStatement(this.db, eq(releaseLedger.sourceId, id)),
      this.db.delete(releaseLedger).where(eq(releaseLedger.sourceId, id)).returning({ id: releaseLedger.id }),
      this.db
        .update(releaseSources)
        .set({
          lastPolledAt: null,
          lastError: null,
          lastErrorAt: null,
          lastSummary: null,
          backoffUntil: null,
          updatedAt: now,
        })
        .where(eq(releaseSources.id, id)),
      this.db
        .update(releasePolls)
        .set({ lastPolledAt: null, lastError: null, matchedId: null })
        .where(eq(releasePolls.sourceId, id)),
      this.db.select(sourceColumns).from(releaseSources).where(eq(releaseSources.id, id)),
    ]);
    return after[0] ? { source: after[0], deleted: gone.length } : undefined;
  }

  /**
   * Every series the source (or, without an id, every source) tracks becomes due now if the source is enabled
   * (poll-now), with the sources read first: one batch. Returns the sources, enabled or not, and how many polls
   * became due.
   */
  async makeDue(sourceId: string | undefined, now: string): Promise<{ sources: SourceRow[]; due: number }> {
    const which = sourceId === undefined ? undefined : eq(releaseSources.id, sourceId);
    const enabled = this.db
      .select({ id: releaseSources.id })
      .from(releaseSources)
      .where(and(which, eq(releaseSources.enabled, true)));
    const [sources, due] = await this.db.batch([
      this.db.select(sourceColumns).from(releaseSources).where(which).orderBy(releaseSources.displayName),
      this.db
        .update(releasePolls)
        .set({ nextPollAt: now })
        .where(inArray(releasePolls.sourceId, enabled))
        .returning({ sourceId: releasePolls.sourceId }),
    ]);
    return { sources, due: due.length };
  }
}
