/**
 * Release polls on Cloudflare Queues (issue 32, docs/DECISIONS.md §Release tracking, "Polling"): a queue of its
 * own, `longbox-release-poll`, consumed by the longbox-jobs worker one batch at a time (so the providers' pace
 * holds across the whole deployment). A message names one source and up to 25 of its series: 10,000 series
 * are 400 messages, about 0.1 queue operations per series. It is a hint: D1 says what is due.
 */
import { z } from 'zod';

export const RELEASE_POLL_QUEUE = 'longbox-release-poll';

/** How long a claimed poll waits for its message before the cron hands it out again. */
export const POLL_LEASE_MS = 30 * 60_000;

/** Series per message: a batch of 4 messages is 100 polls; a redelivered message repeats at most 25. */
export const SERIES_PER_MESSAGE = 25;

export const ReleasePollMessageSchema = z.object({
  sourceId: z.string().min(1),
  seriesIds: z.array(z.string().min(1)).min(1).max(SERIES_PER_MESSAGE),
  /** When the polls were claimed: a series polled since then (a redelivery) is not polled again. */
  claimedAt: z.string(),
});
export type ReleasePollMessage = z.infer<typeof ReleasePollMessageSchema>;
export type ReleasePollQueue = Queue<ReleasePollMessage>;
