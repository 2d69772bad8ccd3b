/**
 * Consumers of the book-work queues (issue 11). The books of a batch are worked on together (R2 and the
 * renderer are waited on, not computed; D1 is read and written once for the batch), each message acked
 * or retried on its own, so one bad book never holds back or repeats the others. Production scales this out by running many batches at once (no
 * max_concurrency is set); nothing here assumes it runs alone.
 */
import { readConfig } from '../src/config/config';
import { createEventPublisher } from '../src/events/publisher';
import { createLogger } from '../src/lib/logger';
import {
  type BookWorkDeps,
  type BookWorkOutcome,
  completeBookWorkBatch,
  recordAbandonedBookWork,
} from '../src/ingest/book-completion';
import { type BookWorkMessage, BookWorkMessageSchema } from '../src/ingest/book-work';
import { refreshIngestTasks } from '../src/ingest/ingest-tasks';
import { createRendererClient, type ImageRendererRpc } from '../src/media/image-renderer';
import { defaultDatabaseFactory } from '../src/middleware/request-context';
import { SettingsRepository } from '../src/repositories/settings.repository';
import { SettingsService } from '../src/services/settings.service';
import { refreshSeriesThumbnail } from '../src/thumbnails/thumbnail-generator';

const log = (level: 'warn' | 'error', msg: string, fields: Record<string, unknown>) =>
  console[level](JSON.stringify({ level, msg, ...fields }));

function parse(message: Message<unknown>): BookWorkMessage | null {
  const parsed = BookWorkMessageSchema.safeParse(message.body);
  if (parsed.success) return parsed.data;
  // A message no version of this code understands: retrying cannot help.
  log('warn', 'book work message ignored', { id: message.id, issues: parsed.error.issues.length });
  message.ack();
  return null;
}

/** `longbox-book-work`: completes each book, then brings the progress of the touched libraries up to date. */
export async function consumeBookWork(batch: MessageBatch<unknown>, env: Env, ctx: ExecutionContext): Promise<void> {
  const config = readConfig(env);
  const db = await defaultDatabaseFactory(env);
  const events = createEventPublisher(env.EVENT_HUB, (work) => ctx.waitUntil(work()));
  const binding = (env as Partial<{ RENDERER: ImageRendererRpc }>).RENDERER;
  const deps: BookWorkDeps = {
    db,
    env,
    events,
    renderer: binding ? createRendererClient(binding) : null,
    thumbnailMaxSide: await new SettingsService(new SettingsRepository(db)).value('thumbnails.max_size'),
  };
  const libraries = new Set<string>();
  const coveredSeries = new Set<string>();
  // `details` and `thumbnails` count work done; `skipped` deliveries found nothing to do.
  const tally = { details: 0, thumbnails: 0, skipped: 0, retried: 0, r2Requests: 0, detailsMs: 0, thumbnailMs: 0 };
  const batchStarted = Date.now();
  const work = batch.messages.flatMap((message) => {
    const body = parse(message);
    return body ? [{ message, body }] : [];
  });
  const outcomes = await completeBookWorkBatch(
    deps,
    work.map((w) => w.body),
  );
  work.forEach(({ message, body }, i) => {
    const outcome = outcomes[i] as BookWorkOutcome;
    if (outcome.kind === 'retry') {
      // Transient (storage, renderer unreachable): later, with backoff; after max_retries the dead-letter queue.
      const delaySeconds = Math.min(config.LONGBOX_INGEST__RETRY_DELAY_SECONDS * 2 ** (message.attempts - 1), 900);
      log('warn', 'book work failed; retrying', {
        bookId: body.bookId,
        attempts: message.attempts,
        error: String(outcome.error),
      });
      message.retry({ delaySeconds });
      tally.retried += 1;
      return;
    }
    if (outcome.kind === 'done') {
      libraries.add(outcome.libraryId);
      if (outcome.thumbnail) coveredSeries.add(outcome.seriesId);
      tally.details += outcome.details ? 1 : 0;
      tally.thumbnails += outcome.thumbnail ? 1 : 0;
      tally.r2Requests += outcome.r2Requests;
      tally.detailsMs += outcome.detailsMs;
      tally.thumbnailMs += outcome.thumbnailMs;
      if (!outcome.details && !outcome.thumbnail) tally.skipped += 1;
    } else tally.skipped += 1;
    message.ack();
  });
  const booksMs = Date.now() - batchStarted;
  for (const seriesId of coveredSeries) await refreshSeriesThumbnail(db, events, seriesId);
  if (libraries.size > 0) await refreshIngestTasks(db, events, [...libraries]);
  // One line per batch: what operators (and bench/ingest.bench.mjs) count, e.g. R2 GETs per book.
  createLogger({ job: 'book work' }, config.LONGBOX_LOG__LEVEL).info('batch done', {
    messages: batch.messages.length,
    ...tally,
    booksMs,
    ms: Date.now() - batchStarted,
  });
}

/** `longbox-book-work-dlq`: work the queue gave up on is recorded on its book, which then counts as done. */
export async function consumeAbandonedBookWork(
  batch: MessageBatch<unknown>,
  env: Env,
  ctx: ExecutionContext,
): Promise<void> {
  const db = await defaultDatabaseFactory(env);
  const events = createEventPublisher(env.EVENT_HUB, (work) => ctx.waitUntil(work()));
  const libraries = new Set<string>();
  for (const message of batch.messages) {
    const body = parse(message);
    if (!body) continue;
    log('error', 'book work abandoned after retries', { bookId: body.bookId });
    const recorded = await recordAbandonedBookWork(db, body);
    if (recorded) libraries.add(recorded.libraryId);
    message.ack();
  }
  if (libraries.size > 0) await refreshIngestTasks(db, events, [...libraries]);
}
