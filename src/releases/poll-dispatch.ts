/**
 * Handing due polls to the release-poll queue (docs/DECISIONS.md §Release tracking, "Polling"): the one-minute
 * cron claims, per pollable source, at most what the provider's pace lets the consumer finish within a minute
 * (and `LONGBOX_RELEASES__POLLS_PER_TICK`), so the queue never holds hours of work that a lease would hand out
 * twice; a poll-now claims one series at once (and queues it after its answer). Claimed polls are leased: a message lost in the queue makes its
 * series due again after the lease.
 */
import type { Database } from '../db/client';
import { type ClaimedPoll, ReleasePollsRepository } from '../repositories/release-polls.repository';
import {
  POLL_LEASE_MS,
  RELEASE_POLL_QUEUE,
  type ReleasePollMessage,
  type ReleasePollQueue,
  SERIES_PER_MESSAGE,
} from './poll-message';
import { pollsPerMinute, providerSettings } from './provider-settings';
import { providerOf } from './providers';

export { RELEASE_POLL_QUEUE };

/** Queues' sendBatch limit: 100 messages (a message here is ~1 KB). */
const SEND_BATCH_LIMIT = 100;

/** One message per 25 series of a source. */
function messagesOf(claimed: readonly ClaimedPoll[], claimedAt: string): ReleasePollMessage[] {
  const bySource = new Map<string, string[]>();
  for (const { sourceId, seriesId } of claimed) bySource.set(sourceId, [...(bySource.get(sourceId) ?? []), seriesId]);
  const messages: ReleasePollMessage[] = [];
  for (const [sourceId, seriesIds] of bySource) {
    for (let i = 0; i < seriesIds.length; i += SERIES_PER_MESSAGE) {
      messages.push({ sourceId, seriesIds: seriesIds.slice(i, i + SERIES_PER_MESSAGE), claimedAt });
    }
  }
  return messages;
}

async function send(queue: ReleasePollQueue, messages: readonly ReleasePollMessage[]): Promise<void> {
  for (let i = 0; i < messages.length; i += SEND_BATCH_LIMIT) {
    await queue.sendBatch(messages.slice(i, i + SEND_BATCH_LIMIT).map((body) => ({ body })));
  }
}

export interface DispatchOptions {
  /** Polls per source at most (the tick's budget). */
  limit: number;
  /** The deployment's bindings, for each provider's pace. */
  env: object;
}

export interface Dispatched {
  /** Polls queued (one per series and source). */
  polls: number;
  /** Queue messages sent for them (25 polls a message). */
  messages: number;
}

/** Claims and queues the due polls of every pollable source. */
export async function dispatchDuePolls(
  db: Database,
  queue: ReleasePollQueue,
  at: Date,
  { limit, env }: DispatchOptions,
): Promise<Dispatched> {
  const repository = new ReleasePollsRepository(db);
  const now = at.toISOString();
  const lease = pollLeaseUntil(at);
  const dispatched: Dispatched = { polls: 0, messages: 0 };
  for (const source of await repository.pollableSources(now)) {
    const provider = providerOf(source.provider);
    if (!provider) continue;
    const budget = Math.min(limit, pollsPerMinute(providerSettings(env, provider), provider));
    const claimed = await repository.claimDue(source.id, now, lease, budget);
    const messages = messagesOf(claimed, now);
    await send(queue, messages);
    dispatched.polls += claimed.length;
    dispatched.messages += messages.length;
  }
  return dispatched;
}

/** When polls claimed at `at` are due again should their message be lost. */
export function pollLeaseUntil(at: Date): string {
  return new Date(at.getTime() + POLL_LEASE_MS).toISOString();
}

/** Queues polls already claimed (a series' poll-now: SeriesTrackingRepository `claimPolls`). */
export async function queueClaimedPolls(
  queue: ReleasePollQueue,
  claimed: readonly ClaimedPoll[],
  at: Date,
): Promise<void> {
  await send(queue, messagesOf(claimed, at.toISOString()));
}
