import { applyD1Migrations, env, reset } from 'cloudflare:test';
// The plugin's own wait for every `waitUntil` of the worker's requests (SELF.fetch's included), which
// `cloudflare:test` does not re-export; declared in test/support/cloudflare-test-internal.d.ts.
import { waitForGlobalWaitUntil } from 'cloudflare:test-internal';
import { afterEach, beforeEach } from 'vitest';

/**
 * Every test starts from an empty D1/R2/Durable Object state with the same migrations wrangler applies.
 *
 * Work a previous test left running after its response (waitUntil: an edge-cache fill, a last-used
 * stamp) can hold the D1 simulator's object open while reset() wipes storage; the open database then
 * survives the wipe. Checking that the catalog really is empty, and wiping again if not, keeps every
 * test's start state exact.
 */
beforeEach(async () => {
  for (let attempt = 1; ; attempt++) {
    await reset();
    await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
    const left = await env.DB.prepare(
      'SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM libraries) AS n',
    ).first<{
      n: number;
    }>();
    if (left?.n === 0) return;
    if (attempt === 3) throw new Error('storage could not be reset: rows of an earlier test survived three resets');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
});

/**
 * A test ends when the work its requests left for after their answers has: otherwise that work (a sign-in's
 * authentication activity, an API key's last use) writes into the next test's freshly wiped storage, and
 * fails there on a foreign key ("deferred work failed … FOREIGN KEY constraint failed") — noise in the log
 * that hides real failures. Work that fails is still logged by the worker as it was; a rejected `waitUntil`
 * fails the test that left it.
 */
afterEach(async () => {
  await waitForGlobalWaitUntil();
});
