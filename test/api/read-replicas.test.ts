/**
 * Read replicas (`LONGBOX_DATABASE__READ_REPLICAS`; DECISIONS.md §Far readers; issue 30 point 4), through the
 * real worker with a replica that lags (test/support/replica.ts: a copy of the catalog the primary moves away
 * from). Reads go through a D1 session; the bookmark every answer carries brings a client's own writes back
 * even from a replica that has not caught up; a revoked key may pass a lagging replica's check only until the
 * isolate's next check of it on the primary (a minute), and the default mode refuses it at once.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readConfig } from '../../src/config/config';
import type { FaultInjector } from '../../src/fault-injection/platform-faults';
import { BOOKMARK_COOKIE, BOOKMARK_HEADER } from '../../src/http/bookmark';
import { PRIMARY_RECHECK_MS } from '../../src/services/authentication.service';
import { seedBook, seedLibrary, seedSeries } from '../support/catalog-factory';
import { ADMIN, setupAdmin } from '../support/factories';
import { type FaultyWorker, faultyWorker } from '../support/faults';
import type { Credentials } from '../support/http';
import { laggingReplica } from '../support/replica';

const REPLICAS = { LONGBOX_DATABASE__READ_REPLICAS: 'true' };

async function call(worker: FaultyWorker, path: string, auth: Credentials, init: RequestInit = {}) {
  const res = await worker.fetch(path, { ...init, auth });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : null };
}

async function keyOf(worker: FaultyWorker, owner: Credentials) {
  const res = await call(worker, '/api-keys', owner, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'far tablet' }),
  });
  expect(res.status).toBe(201);
  return { id: res.body.id as string, auth: { apiKey: res.body.key as string } as Credentials };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('read replicas: a client reads its own writes', () => {
  it('brings a progress write back through the bookmark although the replica lags behind it', async () => {
    await setupAdmin();
    const book = await seedBook(await seedSeries(await seedLibrary(), { title: 'Far Shore' }), { pageCount: 20 });
    const injector: FaultInjector = {};
    const worker = faultyWorker(injector, REPLICAS);
    const admin = await worker.signIn(ADMIN);
    const key = await keyOf(worker, admin);
    injector.replica = await laggingReplica();

    const put = await call(worker, `/books/${book.id}/progress`, key.auth, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ current_page: 5 }),
    });
    expect(put.status).toBe(200);
    const bookmark = put.headers.get(BOOKMARK_HEADER) ?? '';
    expect(bookmark > injector.replica.caughtUpTo).toBe(true);
    expect(put.headers.get('Set-Cookie')).toContain(`${BOOKMARK_COOKIE}=${bookmark}`);

    // Without the bookmark the session starts on the replica, which has not seen the write yet...
    const stale = await call(worker, `/books/${book.id}/progress`, key.auth);
    expect(stale.status).toBe(404);
    expect(stale.body.message).toBe('Read progress not found');
    // ...with it (header or cookie), on a database at least as new as the write.
    const byHeader = await call(worker, `/books/${book.id}/progress`, key.auth, {
      headers: { [BOOKMARK_HEADER]: bookmark },
    });
    expect(byHeader.status).toBe(200);
    expect(byHeader.body).toMatchObject({ currentPage: 5 });
    const byCookie = await call(worker, `/books/${book.id}/progress`, key.auth, {
      headers: { Cookie: `${BOOKMARK_COOKIE}=${bookmark}` },
    });
    expect(byCookie.body).toMatchObject({ currentPage: 5 });
    expect(injector.replica.sessions.map((s) => s.reads)).toEqual(['replica', 'replica', 'primary', 'primary']);
  });

  it('ignores a malformed bookmark instead of failing the request', async () => {
    await setupAdmin();
    const worker = faultyWorker({}, REPLICAS);
    const admin = await worker.signIn(ADMIN);
    const res = await call(worker, '/series', admin, { headers: { [BOOKMARK_HEADER]: 'not a bookmark; drop table' } });
    expect(res.status).toBe(200);
    expect(res.headers.get(BOOKMARK_HEADER)).toMatch(/^[0-9A-Za-z-]+$/);
  });
});

describe('a key revoked while a replica lags', () => {
  async function revokedDuringLag(vars: Record<string, string>) {
    await setupAdmin();
    await seedSeries(await seedLibrary(), { title: 'Lag Island' });
    const injector: FaultInjector = {};
    const worker = faultyWorker(injector, vars);
    const admin = await worker.signIn(ADMIN);
    const key = await keyOf(worker, admin);
    expect((await call(worker, '/series', key.auth)).status).toBe(200);
    injector.replica = await laggingReplica();
    expect((await call(worker, `/api-keys/${key.id}`, admin, { method: 'DELETE' })).status).toBe(204);
    return { worker, key };
  }

  it('default mode: refused at once, whatever a replica holds', async () => {
    const { worker, key } = await revokedDuringLag({});
    const refused = await call(worker, '/series', key.auth);
    expect(refused.status).toBe(401);
    expect(refused.text).not.toContain('Lag Island');
  });

  it('read replicas: passes the lagging replica until a minute after its last check on the primary, then refused', async () => {
    const { worker, key } = await revokedDuringLag(REPLICAS);
    // The cost DECISIONS.md states: the replica still has the key.
    const passed = await call(worker, '/series', key.auth);
    expect(passed.status).toBe(200);
    expect(passed.text).toContain('Lag Island');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + PRIMARY_RECHECK_MS + 1000);
    const refused = await call(worker, '/series', key.auth);
    expect(refused.status).toBe(401);
    expect(refused.text).not.toContain('Lag Island');
  });
});

describe('read replicas and libSQL', () => {
  it('refuses the combination at the first request, naming both variables', () => {
    expect(() => readConfig({ LONGBOX_DATABASE__URL: 'libsql://longbox.example.org', ...REPLICAS })).toThrowError(
      /LONGBOX_DATABASE__READ_REPLICAS: read replicas are a D1 feature .*LONGBOX_DATABASE__URL/,
    );
  });
});
