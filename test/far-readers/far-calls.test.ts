/**
 * The far-readers benchmark's model of distance (bench/workers/far-calls.ts, issue 30) over miniflare's real
 * D1, R2 and Durable Object bindings: what one request's depth counts, and where read replicas serve a call.
 * The benchmark's numbers are only as right as these rules.
 */
import { env } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import {
  FarCalls,
  farBucket,
  farDatabase,
  farNamespace,
  farReport,
  isReadOnlySql,
  RequestRecord,
  sqlLabel,
} from '../../bench/workers/far-calls';

/** A FarCalls whose "current request" is `record`, as the entry's AsyncLocalStorage would give it. */
function shim(settings = { delayMs: 0, replicas: false }) {
  const record = new RequestRecord('1', 'GET', '/');
  const far = new FarCalls(() => record);
  far.settings = settings;
  return {
    record,
    far,
    db: farDatabase('DB', env.DB, far),
    library: farBucket('LIBRARY', env.LIBRARY, far),
    respond: () => {
      record.respondedAt = far.tick();
      return farReport(record);
    },
  };
}

const placements = (record: RequestRecord) => record.calls.map((call) => `${call.label}: ${call.placement}`);

describe('far calls of one request', () => {
  it('counts a batch as one call, and calls one after another as a chain', async () => {
    const { db, library, respond } = shim();
    await env.LIBRARY.put('a', 'bytes');
    await db.prepare('SELECT 1 AS one').first();
    await db.batch([db.prepare('SELECT 1'), db.prepare('SELECT 2')]);
    await Promise.all([library.get('a').then((object) => object?.text()), db.prepare('SELECT 3').all()]);
    const report = respond();
    expect(report.levels).toEqual([['DB SELECT'], ['DB batch[2] SELECT'], ['LIBRARY.get', 'DB SELECT']]);
    expect(report.depth).toBe(3);
  });

  it('does not count a call still running when the response is returned, nor one started after it', async () => {
    const { db, library, record, respond } = shim({ delayMs: 50, replicas: false });
    await db.prepare('SELECT 1').first();
    const pending = library.head('missing');
    const atResponse = respond();
    const after = db.prepare('SELECT 2').first();
    await Promise.all([pending, after]);
    expect(atResponse.depth).toBe(1);
    expect(atResponse.pending.map((call) => call.label)).toEqual(['LIBRARY.head']);
    // Once everything has ended: the head ended after the response, so it is still pending, not counted.
    const settled = farReport(record);
    expect(settled.depth).toBe(1);
    expect(settled.pending.map((call) => call.label)).toEqual(['LIBRARY.head']);
    expect(settled.after.map((call) => call.label)).toEqual(['DB SELECT']);
    expect(settled.settled).toBe(true);
  });

  it('delays far calls by the set time and never delays a near one', async () => {
    const { db, far } = shim({ delayMs: 40, replicas: true });
    const started = Date.now();
    await db.prepare('SELECT 1').first();
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
    // A replica read is near: with a 10 s delay it would time this test out.
    far.settings = { delayMs: 10_000, replicas: true };
    await db.withSession('first-unconstrained').prepare('SELECT 1').first();
  });

  it('delays Durable Object calls: the stub is made locally, each call on it is far', async () => {
    const record = new RequestRecord('1', 'GET', '/');
    const far = new FarCalls(() => record);
    const hub = farNamespace('EVENT_HUB', env.EVENT_HUB, far);
    const stub = hub.get(hub.idFromName('global'));
    expect(await stub.since(0)).toEqual([]);
    expect(placements(record)).toEqual(['EVENT_HUB.since: far']);
  });
});

describe('read replicas (withSession, as miniflare runs it)', () => {
  it('serves read-only session statements near and sends writes to the primary', async () => {
    const { db, record } = shim({ delayMs: 0, replicas: true });
    await db.prepare('CREATE TABLE IF NOT EXISTS far_test (n INTEGER)').run();
    const session = db.withSession('first-unconstrained');
    await session.prepare('INSERT INTO far_test (n) VALUES (?)').bind(7).run();
    const row = await session.prepare('SELECT n FROM far_test').first<{ n: number }>();
    await session.batch([session.prepare('SELECT n FROM far_test'), session.prepare('SELECT count(*) FROM far_test')]);
    await session.batch([session.prepare('SELECT n FROM far_test'), session.prepare('DELETE FROM far_test')]);
    await db.prepare('SELECT n FROM far_test').all();
    // miniflare's D1 keeps a session (read-your-writes) and gives a bookmark.
    expect(row?.n).toBe(7);
    expect(typeof session.getBookmark()).toBe('string');
    expect(placements(record)).toEqual([
      'DB CREATE: far',
      'DB session INSERT far_test: far',
      'DB session SELECT far_test: near',
      'DB session batch[2] SELECT far_test: near',
      'DB session batch[2] SELECT far_test, DELETE far_test: far',
      // Without the Sessions API every statement runs on the primary.
      'DB SELECT far_test: far',
    ]);
  });

  it("sends a 'first-primary' session's first call to the primary, its later reads to a replica", async () => {
    const { db, record } = shim({ delayMs: 0, replicas: true });
    const session = db.withSession('first-primary');
    await session.prepare('SELECT 1').first();
    await session.prepare('SELECT 2').first();
    expect(placements(record)).toEqual(['DB session SELECT: far', 'DB session SELECT: near']);
  });

  it('sends every session statement to the primary when replicas are off', async () => {
    const { db, record } = shim({ delayMs: 0, replicas: false });
    await db.withSession('first-unconstrained').prepare('SELECT 1').first();
    expect(placements(record)).toEqual(['DB session SELECT: far']);
  });

  it('tells reads from writes in SQL as drizzle writes it', () => {
    expect(isReadOnlySql('select "id", replace("name", \'a\', \'b\') from "users" where "updated_at" > ?')).toBe(true);
    expect(isReadOnlySql('with x as (select 1) insert into "t" select * from x')).toBe(false);
    expect(isReadOnlySql('insert into "read_progress" ("a") values (?) on conflict do update set "a" = 1')).toBe(false);
    expect(isReadOnlySql('select \'delete\' as "update"')).toBe(true);
    expect(sqlLabel('select (select 1 from "grants") from "users" join "keys" on 1')).toBe('SELECT users');
  });
});
