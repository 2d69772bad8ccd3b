/**
 * The API worker's entry: the HTTP app, the cron trigger, the queue handler and the Durable
 * Object classes. No logic lives here. It sits outside src/ because it imports durable-objects/ and
 * consumers/, which use src/ — never the reverse (issue 11 point 4).
 */
import { consumeQueue } from '../consumers/queues';
import { createApp } from '../src/app';
import { readConfig } from '../src/config/config';
import { createEventPublisher } from '../src/events/publisher';
import { withInjectedFaults } from '../src/fault-injection/platform-faults';
import { refreshIngestTasks } from '../src/ingest/ingest-tasks';
import { requeueLostBookWork } from '../src/ingest/requeue';
import { dispatchDuePolls } from '../src/releases/poll-dispatch';
import { createLogger } from '../src/lib/logger';
import { defaultDatabaseFactory } from '../src/middleware/request-context';
import { runScheduledScans, runStartupScans } from '../src/services/scheduled-scans';
import { pruneExpired, sweepCachedImages } from '../src/services/housekeeping';

export { EventHub } from '../durable-objects/event-hub';
export { LibraryScan } from '../durable-objects/library-scan';
export { TaskRunner } from '../durable-objects/task-runner';

const app = createApp();

/** scan_on_start runs once per deployed version: on the first request or cron tick of each isolate. */
let startupChecked = false;
function checkStartupScans(env: Env, ctx: ExecutionContext): void {
  if (startupChecked) return;
  startupChecked = true;
  ctx.waitUntil(
    (async () =>
      runStartupScans(await defaultDatabaseFactory(env), env, env.CF_VERSION_METADATA?.id ?? 'local'))().catch(
      (error) => {
        startupChecked = false;
        console.error(JSON.stringify({ level: 'error', msg: 'startup scans failed', error: String(error) }));
      },
    ),
  );
}

// Every handler sees the environment through withInjectedFaults: the environment itself, unless a test
// installed a fault injector (docs/RELIABILITY.md, "Faults").
export default {
  fetch(request, rawEnv, ctx) {
    const env = withInjectedFaults(rawEnv);
    readConfig(env);
    checkStartupScans(env, ctx);
    return app.fetch(request, env, ctx);
  },
  async scheduled(controller, rawEnv, ctx) {
    const env = withInjectedFaults(rawEnv);
    checkStartupScans(env, ctx);
    const config = readConfig(env);
    const db = await defaultDatabaseFactory(env);
    const at = new Date(controller.scheduledTime);
    await runScheduledScans(db, env, at);
    // Queued book work whose message got lost is queued again; finished rounds are closed.
    const requeued = await requeueLostBookWork(
      db,
      env.BOOK_WORK,
      at,
      config.LONGBOX_INGEST__REQUEUE_AFTER_MINUTES * 60_000,
    );
    if (requeued > 0)
      createLogger({ job: 'ingest' }, config.LONGBOX_LOG__LEVEL).info('re-queued book work', { requeued });
    await refreshIngestTasks(
      db,
      createEventPublisher(env.EVENT_HUB, (work) => ctx.waitUntil(work())),
    );
    // Tracked series due at a release source go to the release-poll queue, as many as each provider's pace allows.
    const queued = await dispatchDuePolls(db, env.RELEASE_POLL, at, {
      limit: config.LONGBOX_RELEASES__POLLS_PER_TICK,
      env,
    });
    if (queued.polls > 0)
      createLogger({ job: 'release poll' }, config.LONGBOX_LOG__LEVEL).info('queued polls', { ...queued });
    if (at.getUTCMinutes() === 0) {
      await pruneExpired(db, at);
      const sweep = await sweepCachedImages(db, env.CACHE, at);
      // `complete: false` means the slice held more keys than one run lists; the rest waits 16 hours.
      createLogger({ job: 'cache sweep' }, config.LONGBOX_LOG__LEVEL).info('swept cached images', {
        ...sweep,
      });
    }
  },
  // The book-work consumers run in the longbox-jobs worker (consumers/wrangler.toml); a deployment that
  // wants one worker only attaches the queues here instead. Tests consume here.
  queue: (batch, env, ctx) => consumeQueue(batch, withInjectedFaults(env), ctx),
} satisfies ExportedHandler<Env>;
