/**
 * The release-poll queue's consumer (issue 32; src/releases/poll-batch.ts does the work): each message a
 * source and up to 25 of its series, each acked or retried on its own (a provider that asks us to wait gets
 * its messages back after its `Retry-After`). consumers/wrangler.toml runs one batch at a time, so one
 * provider's pace holds across the deployment.
 */
import { readConfig } from '../src/config/config';
import { createEventPublisher } from '../src/events/publisher';
import { createLogger } from '../src/lib/logger';
import { defaultDatabaseFactory } from '../src/middleware/request-context';
import { pollReleaseBatch } from '../src/releases/poll-batch';
import { type ReleasePollMessage, ReleasePollMessageSchema } from '../src/releases/poll-message';
import { SettingsRepository } from '../src/repositories/settings.repository';
import { SettingsService } from '../src/services/settings.service';

export async function consumeReleasePolls(
  batch: MessageBatch<unknown>,
  env: Env,
  ctx: ExecutionContext,
): Promise<void> {
  const config = readConfig(env);
  const log = createLogger({ job: 'release poll' }, config.LONGBOX_LOG__LEVEL);
  const work: Array<{ message: Message<unknown>; body: ReleasePollMessage }> = [];
  for (const message of batch.messages) {
    const parsed = ReleasePollMessageSchema.safeParse(message.body);
    if (parsed.success) work.push({ message, body: parsed.data });
    else {
      // A message no version of this code understands: retrying cannot help.
      log.warn('release poll message ignored', { id: message.id, issues: parsed.error.issues.length });
      message.ack();
    }
  }
  if (work.length === 0) return;
  const started = Date.now();
  const db = await defaultDatabaseFactory(env);
  const { outcomes, summary } = await pollReleaseBatch(
    {
      db,
      env,
      timeoutMs: config.LONGBOX_RELEASES__TIMEOUT_MS,
      events: createEventPublisher(env.EVENT_HUB, (work) => ctx.waitUntil(work())),
      defaultLanguages: await new SettingsService(new SettingsRepository(db)).value('releases.default_languages'),
    },
    work.map((w) => w.body),
  );
  work.forEach(({ message }, i) => {
    const outcome = outcomes[i];
    if (outcome?.kind === 'retry') message.retry({ delaySeconds: Math.min(outcome.delaySeconds, 43_200) });
    else message.ack();
  });
  // One line per batch: what operators (and bench/release-poll.bench.mjs) count, e.g. D1 statements per series.
  log.info('batch done', {
    messages: batch.messages.length,
    ...summary,
    statements: summary.statements + 1, // and the settings read
    ms: Date.now() - started,
  });
}
