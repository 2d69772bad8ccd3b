/**
 * The queue handler of any worker that consumes Longbox's queues, routed by queue name: the book-work queue
 * and its dead letters (issue 11), and the release polls (issue 32).
 */
import { BOOK_WORK_DEAD_LETTER_QUEUE } from '../src/ingest/book-work';
import { RELEASE_POLL_QUEUE } from '../src/releases/poll-message';
import { consumeAbandonedBookWork, consumeBookWork } from './book-work.consumer';
import { consumeReleasePolls } from './release-poll.consumer';

export async function consumeQueue(batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext): Promise<void> {
  if (batch.queue === RELEASE_POLL_QUEUE) return consumeReleasePolls(batch, env, ctx);
  if (batch.queue === BOOK_WORK_DEAD_LETTER_QUEUE) return consumeAbandonedBookWork(batch, env, ctx);
  return consumeBookWork(batch, env, ctx);
}
