import { applyD1Migrations, env, reset } from 'cloudflare:test';
import { beforeEach } from 'vitest';

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
