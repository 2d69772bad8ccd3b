/**
 * The release sources (Codex-rs `release_sources`): one row per built-in provider, which the admin turns on or
 * off, paces (seconds between two polls of a series), polls now or resets. What a poll learns about a source
 * (when it last polled, its error, a provider's request to wait) is written by release-polls.repository.ts in
 * the poll's batch.
 */
import { count, eq, sql } from 'drizzle-orm';
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

  async get(id: string): Promise<SourceRow | undefined> {
    return this.db.select(sourceColumns).from(releaseSources).where(eq(releaseSources.id, id)).get();
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
   * stay. The next poll records them anew. Returns how many
   * releases went.
   */
  async reset(id: string, now: string): Promise<number> {
    const [, gone] = await this.db.batch([
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
    ]);
    return gone.length;
  }

  /** Every series the source tracks becomes due now (poll-now); returns how many. */
  async makeDue(id: string, now: string): Promise<number> {
    const [due] = await this.db.batch([
      this.db.select({ n: count() }).from(releasePolls).where(eq(releasePolls.sourceId, id)),
      this.db.update(releasePolls).set({ nextPollAt: now }).where(eq(releasePolls.sourceId, id)),
    ]);
    return due[0]?.n ?? 0;
  }
}
