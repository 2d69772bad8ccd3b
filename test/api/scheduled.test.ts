/**
 * API.md §2 Library scanning_config: cron_schedule scans and scan_on_start, run by the worker's cron
 * trigger; plus the hourly clean-up of expired sessions and throttle windows.
 */
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index';
import { api } from '../support/http';
import { setupAdmin } from '../support/factories';
import { makeCbz, putObject } from '../support/library-files';
import { createLibrary, waitForScan } from '../support/scans';

async function tick(at: string) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: new Date(at), cron: '* * * * *' }), env, ctx);
  await waitOnExecutionContext(ctx);
}

describe('scheduled scans (API.md §2 scanning_config)', () => {
  it('starts a scan when the cron schedule matches the minute, and not otherwise', async () => {
    const { auth } = await setupAdmin();
    const hourly = await createLibrary(auth, {
      name: 'Hourly',
      path: 'hourly',
      scanning_config: { enabled: true, cron_schedule: '15 * * * *', default_mode: 'normal', scan_on_start: false },
    });
    const disabled = await createLibrary(auth, {
      name: 'Disabled',
      path: 'disabled',
      scanning_config: { enabled: false, cron_schedule: '15 * * * *', default_mode: 'normal', scan_on_start: false },
    });
    await putObject('hourly/A/a.cbz', await makeCbz(1));

    await tick('2026-11-21T10:14:00Z');
    expect((await api(`/libraries/${hourly}/scan-status`, { auth })).body.status).toBe('idle');

    await tick('2026-11-21T10:15:00Z');
    const scanned = await waitForScan(auth, hourly);
    expect(scanned).toMatchObject({ status: 'completed', booksAdded: 1 });
    expect((await api(`/libraries/${disabled}/scan-status`, { auth })).body.status).toBe('idle');
  });

  it('scans scan_on_start libraries once per deployed version', async () => {
    const { auth } = await setupAdmin();
    const onStart = await createLibrary(auth, {
      name: 'OnStart',
      path: 'onstart',
      scanning_config: { enabled: true, cron_schedule: null, default_mode: 'normal', scan_on_start: true },
    });
    await putObject('onstart/A/a.cbz', await makeCbz(1));
    const { runStartupScans } = await import('../../src/scanning/scheduled-scans');
    const { createD1Database } = await import('../../src/db/client');
    const db = createD1Database(env.DB);
    expect(await runStartupScans(db, env, 'version-1')).toEqual([onStart]);
    await waitForScan(auth, onStart);
    expect(await runStartupScans(db, env, 'version-1')).toEqual([]);
    expect(await runStartupScans(db, env, 'version-2')).toEqual([onStart]);
    await waitForScan(auth, onStart);
  });
});

describe('hourly clean-up', () => {
  it('removes expired sessions and ended throttle windows at the top of the hour', async () => {
    await setupAdmin();
    await env.DB.prepare(
      "INSERT INTO login_attempts (key, failures, window_started_at) VALUES ('user:ghost', 3, '2020-01-01T00:00:00.000Z')",
    ).run();
    const before = await env.DB.prepare('SELECT count(*) AS n FROM sessions').first<{ n: number }>();
    expect(before?.n).toBe(1);
    await tick('2100-01-01T00:00:00Z'); // far future: every session has expired by then
    const sessions = await env.DB.prepare('SELECT count(*) AS n FROM sessions').first<{ n: number }>();
    const attempts = await env.DB.prepare('SELECT count(*) AS n FROM login_attempts').first<{ n: number }>();
    expect(sessions?.n).toBe(0);
    expect(attempts?.n).toBe(0);
  });
});
