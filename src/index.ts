/** Worker entry: the HTTP app, the cron trigger and the Durable Object classes. No logic lives here. */
import { createApp } from './app';
import { readConfig } from './config/config';
import { createLogger } from './lib/logger';
import { defaultDatabaseFactory } from './middleware/request-context';
import { runScheduledScans, runStartupScans } from './scanning/scheduled-scans';
import { pruneExpired, sweepCachedImages } from './services/housekeeping';

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

export default {
  fetch(request, env, ctx) {
    readConfig(env);
    checkStartupScans(env, ctx);
    return app.fetch(request, env, ctx);
  },
  async scheduled(controller, env, ctx) {
    checkStartupScans(env, ctx);
    const db = await defaultDatabaseFactory(env);
    const at = new Date(controller.scheduledTime);
    await runScheduledScans(db, env, at);
    if (at.getUTCMinutes() === 0) {
      await pruneExpired(db, at);
      const sweep = await sweepCachedImages(db, env.CACHE, at);
      // `complete: false` means the slice held more keys than one run lists; the rest waits 16 hours.
      createLogger({ job: 'cache sweep' }, readConfig(env).LONGBOX_LOG__LEVEL).info('swept cached images', {
        ...sweep,
      });
    }
  },
} satisfies ExportedHandler<Env>;
