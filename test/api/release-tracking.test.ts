/**
 * Issue 32: a series' tracking through the API (Codex-rs's `/series/{id}/tracking`, aliases, external ids),
 * seeded from the series when it is turned on (ComicInfo `Web` links of known providers, Komf-written series
 * links); bad input named field by field; the inbox's states and bulk actions; the sources (admins only); the
 * cron handing due polls to the queue; and what a restricted reader may see of releases, on /releases and on
 * the event stream.
 */
import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../worker/index';
import { buildAccessFixture } from '../support/access-fixture';
import { ADMIN, createUser, login, setupAdmin } from '../support/factories';
import { api, type Credentials, expectError } from '../support/http';
import { openStream } from '../support/open-stream';
import {
  fakeAniList,
  fakeMangaUpdates,
  pollSeriesNow,
  scanSeries,
  sourceNamed,
  trackingOf,
  uniqueAniListId,
  uniqueMangaUpdatesId,
} from '../support/release-tracking';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const patchTracking = (auth: Credentials, seriesId: string, json: unknown) =>
  api(`/series/${seriesId}/tracking`, { method: 'PATCH', auth, json });

async function sourcesOf(auth: Credentials) {
  return (await api('/release-sources', { auth })).body.sources as Array<{
    id: string;
    pluginId: string;
    enabled: boolean;
    status: string;
    trackedSeries: number;
    pollIntervalS: number;
  }>;
}

describe('tracking a series (issue 32; Codex-rs /series/{id}/tracking)', () => {
  it('answers an untracked series with defaults, and seeds tracking from the series when it is turned on', async () => {
    const { auth } = await setupAdmin();
    const title = `Seeded ${crypto.randomUUID().slice(0, 6)}`;
    // The books' ComicInfo Web names the series' pages at both providers (as Komf writes them).
    const web = 'https://www.mangaupdates.com/series/6z1uqw7/tsuki-no-kioku https://anilist.co/manga/105778/Tsuki';
    const { seriesId } = await scanSeries(auth, title, [
      { chapter: 1, volume: 1, web },
      { chapter: 2, volume: 1, web },
    ]);
    const untracked = await trackingOf(auth, seriesId);
    expect(untracked).toEqual({
      seriesId,
      tracked: false,
      trackChapters: true,
      trackVolumes: true,
      latestKnownChapter: null,
      latestKnownVolume: null,
      pollIntervalOverrideS: null,
      languages: null,
      upstreamProvider: null,
      upstreamChapterCount: null,
      upstreamVolumeCount: null,
      upstreamStatus: null,
      sources: [],
      createdAt: '1970-01-01T00:00:00.000Z',
      updatedAt: '1970-01-01T00:00:00.000Z',
    });
    expect((await api(`/series/${seriesId}`, { auth })).body.tracked).toBe(false);

    // Komf writes the provider's page among the series' links through the Komga API; the series' own links
    // come before its books' (here: another AniList id than the books' ComicInfo names).
    const komf = await api(`http://longbox.test/komga/api/v1/series/${seriesId}/metadata`, {
      method: 'PATCH',
      auth: { basic: { username: ADMIN.username, password: ADMIN.password } },
      json: { links: [{ label: 'AniList', url: 'https://anilist.co/manga/30013/Komf-Picked' }] },
    });
    expect(komf.status, komf.text).toBe(204);
    const on = await patchTracking(auth, seriesId, { tracked: true, languages: ['en', 'fr'] });
    expect(on.status, on.text).toBe(200);
    expect(on.body).toMatchObject({
      tracked: true,
      trackChapters: true,
      trackVolumes: true,
      latestKnownChapter: 2,
      latestKnownVolume: 1,
      languages: ['en', 'fr'],
    });
    expect(on.body.sources.map((s: { pluginId: string }) => s.pluginId).sort()).toEqual(['anilist', 'mangaupdates']);
    expect(sourceNamed(on.body, 'mangaupdates').externalId).toBe('15180124327');
    expect(sourceNamed(on.body, 'anilist').externalId).toBe('30013');
    const ids = (await api(`/series/${seriesId}/external-ids`, { auth })).body.externalIds;
    expect(ids).toEqual([
      expect.objectContaining({
        source: 'anilist',
        externalId: '30013',
        externalUrl: 'https://anilist.co/manga/30013/Komf-Picked',
        origin: 'metadata',
      }),
      expect.objectContaining({
        source: 'mangaupdates',
        externalId: '15180124327',
        externalUrl: 'https://www.mangaupdates.com/series/6z1uqw7/tsuki-no-kioku',
        origin: 'metadata',
      }),
    ]);
    const aliases = (await api(`/series/${seriesId}/aliases`, { auth })).body.aliases;
    expect(aliases).toEqual([
      expect.objectContaining({ alias: title, normalized: title.toLowerCase(), source: 'metadata' }),
    ]);
    expect((await api(`/series/${seriesId}`, { auth })).body.tracked).toBe(true);
    expect((await sourcesOf(auth)).every((s) => s.trackedSeries === 1)).toBe(true);

    // Turning it off keeps the settings, stops the polls, and the series is untracked again.
    const off = await patchTracking(auth, seriesId, { tracked: false });
    expect(off.body).toMatchObject({ tracked: false, languages: ['en', 'fr'], sources: [] });
    expect((await api(`/series/${seriesId}`, { auth })).body).toMatchObject({
      tracked: false,
      upstreamChapterGap: null,
    });
    expect((await sourcesOf(auth)).every((s) => s.trackedSeries === 0)).toBe(true);
  });

  it('tracks only volumes of a series numbered by volume; the values sent win over the seeded ones', async () => {
    const { auth } = await setupAdmin();
    const library = (await api('/libraries', { method: 'POST', auth, json: { name: 'Volumes', path: 'volumes' } })).body
      .id;
    const { putObject, makeCbz } = await import('../support/library-files');
    for (const volume of [1, 2, 3]) {
      await putObject(`volumes/Vols/Vols v${volume}.cbz`, await makeCbz(1, { Series: 'Vols', Volume: volume }));
    }
    const { scan } = await import('../support/scans');
    await scan(auth, library);
    const seriesId = (await api(`/series?library_id=${library}`, { auth })).body.data[0].id;
    const seeded = await patchTracking(auth, seriesId, { tracked: true });
    expect(seeded.body).toMatchObject({
      trackChapters: false,
      trackVolumes: true,
      latestKnownVolume: 3,
      latestKnownChapter: null,
    });
    await patchTracking(auth, seriesId, { tracked: false });
    const sent = await patchTracking(auth, seriesId, { tracked: true, trackChapters: true, latestKnownVolume: 1 });
    expect(sent.body).toMatchObject({ trackChapters: true, trackVolumes: true, latestKnownVolume: 1 });
    // Changing one setting of a tracked series leaves the rest as they were.
    const tuned = await patchTracking(auth, seriesId, { pollIntervalOverrideS: 7200 });
    expect(tuned.body).toMatchObject({
      tracked: true,
      trackChapters: true,
      latestKnownVolume: 1,
      pollIntervalOverrideS: 7200,
    });
  });

  it('answers bad input with a 400 naming the field, and an unknown or hidden series with 404', async () => {
    const { auth } = await setupAdmin();
    const { seriesId } = await scanSeries(auth, `Bad ${crypto.randomUUID().slice(0, 6)}`, [{ chapter: 1 }]);
    const fieldOf = (response: { body: { details: Array<{ path: string }> | null } }) =>
      response.body.details?.map((d) => d.path);

    const provider = await api(`/series/${seriesId}/external-ids`, {
      method: 'POST',
      auth,
      json: { source: 'mangadex', externalId: '123' },
    });
    expectError(provider, 400, 'BadRequest');
    expect(fieldOf(provider)).toEqual(['source']);
    expect(provider.body.message).toBe('Unknown provider "mangadex"');
    for (const [source, externalId] of [
      ['mangaupdates', 'not an id!'],
      ['anilist', 'abc'],
      ['anilist', 'https://anilist.co/anime/21'],
      ['mangaupdates', 'https://example.com/series/6z1uqw7'],
    ]) {
      const malformed = await api(`/series/${seriesId}/external-ids`, {
        method: 'POST',
        auth,
        json: { source, externalId },
      });
      expectError(malformed, 400, 'BadRequest');
      expect(fieldOf(malformed), `${source} ${externalId}`).toEqual(['externalId']);
    }
    // A page address and Codex-rs's prefixed source names are understood.
    const byUrl = await api(`/series/${seriesId}/external-ids`, {
      method: 'POST',
      auth,
      json: { source: 'api:mangaupdates', externalId: 'https://www.mangaupdates.com/series/6z1uqw7/tsuki-no-kioku' },
    });
    expect(byUrl.body).toMatchObject({ source: 'mangaupdates', externalId: '15180124327', origin: 'manual' });
    const replaced = await api(`/series/${seriesId}/external-ids`, {
      method: 'POST',
      auth,
      json: { source: 'mangaupdates', externalId: '6z1uqw8' },
    });
    expect(replaced.body).toMatchObject({ id: byUrl.body.id, externalId: String(Number.parseInt('6z1uqw8', 36)) });
    expect((await api(`/series/${seriesId}/external-ids/${byUrl.body.id}`, { method: 'DELETE', auth })).status).toBe(
      204,
    );
    expectError(
      await api(`/series/${seriesId}/external-ids/${byUrl.body.id}`, { method: 'DELETE', auth }),
      404,
      'NotFound',
    );

    for (const [json, field] of [
      [{ languages: ['english'] }, 'languages.0'],
      [{ tracked: 'yes' }, 'tracked'],
      [{ pollIntervalOverrideS: 60 }, 'pollIntervalOverrideS'],
      [{ latestKnownChapter: -1 }, 'latestKnownChapter'],
      [{ cronSchedule: '* * * * *' }, 'cronSchedule'],
    ] as const) {
      const bad = await patchTracking(auth, seriesId, json);
      expectError(bad, 400, 'BadRequest');
      expect(JSON.stringify(bad.body.details), JSON.stringify(json)).toContain(field);
    }

    const alias = await api(`/series/${seriesId}/aliases`, { method: 'POST', auth, json: { alias: ' !!! ' } });
    expectError(alias, 400, 'BadRequest');
    expect(fieldOf(alias)).toEqual(['alias']);
    const added = await api(`/series/${seriesId}/aliases`, { method: 'POST', auth, json: { alias: 'Moon Memory' } });
    expect(added.status).toBe(201);
    const again = await api(`/series/${seriesId}/aliases`, { method: 'POST', auth, json: { alias: 'moon  memory!' } });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(added.body.id);
    expect((await api(`/series/${seriesId}/aliases/${added.body.id}`, { method: 'DELETE', auth })).status).toBe(204);
    expectError(await api(`/series/${seriesId}/aliases/${added.body.id}`, { method: 'DELETE', auth }), 404, 'NotFound');

    const unknown = crypto.randomUUID();
    for (const path of ['tracking', 'aliases', 'external-ids', 'releases']) {
      expectError(await api(`/series/${unknown}/${path}`, { auth }), 404, 'NotFound');
    }
    expectError(await patchTracking(auth, unknown, { tracked: true }), 404, 'NotFound');
    expectError(await api(`/series/${seriesId}/tracking/poll-now`, { method: 'POST', auth }), 409, 'Conflict');
    expectError(await api('/releases?state=new', { auth }), 400, 'BadRequest');
    expectError(await api('/releases?sort=title', { auth }), 400, 'BadRequest');
  });
});

describe('the inbox and its states (issue 32; Codex-rs /releases)', () => {
  it('dismisses, marks acquired, ignores, resets and deletes, one by one and in bulk; a deleted release comes back', async () => {
    const { auth } = await setupAdmin();
    const title = `Inbox ${crypto.randomUUID().slice(0, 6)}`;
    const mu = uniqueMangaUpdatesId();
    await fakeMangaUpdates(mu, {
      title,
      latestChapter: 6,
      releases: [4, 5, 6].map((n) => ({ id: n, chapter: String(n) })),
    });
    const { seriesId } = await scanSeries(auth, title, [{ chapter: 3 }]);
    await patchTracking(auth, seriesId, { tracked: true });
    await api(`/series/${seriesId}/external-ids`, {
      method: 'POST',
      auth,
      json: { source: 'mangaupdates', externalId: mu },
    });
    await pollSeriesNow(auth, seriesId);
    const page = await api(`/releases?seriesId=${seriesId}&sort=observed,desc`, { auth });
    expect(page.body).toMatchObject({ total: 3, page: 1, pageSize: 50, totalPages: 1 });
    expect(page.body.links.self).toContain('seriesId=');
    const [a, b, c] = page.body.data.map((r: { id: string }) => r.id).sort();

    expect((await api(`/releases/${a}/dismiss`, { method: 'POST', auth })).body.state).toBe('dismissed');
    expect((await api(`/releases/${b}/mark-acquired`, { method: 'POST', auth })).body.state).toBe('marked_acquired');
    expect((await api(`/releases/${c}`, { method: 'PATCH', auth, json: { state: 'ignored' } })).body.state).toBe(
      'ignored',
    );
    expect((await api(`/releases?seriesId=${seriesId}`, { auth })).body.total).toBe(0);
    const counts = async (state: string) =>
      (await api(`/releases?seriesId=${seriesId}&state=${state}`, { auth })).body.total;
    expect([
      await counts('dismissed'),
      await counts('marked_acquired'),
      await counts('ignored'),
      await counts('all'),
    ]).toEqual([1, 1, 1, 3]);

    const reset = await api('/releases/bulk', {
      method: 'POST',
      auth,
      json: { ids: [a, b, c, crypto.randomUUID()], action: 'reset' },
    });
    expect(reset.body).toEqual({ affected: 3, action: 'reset' });
    expect(await counts('announced')).toBe(3);
    expectError(
      await api('/releases/bulk', { method: 'POST', auth, json: { ids: [], action: 'reset' } }),
      400,
      'BadRequest',
    );
    expectError(
      await api('/releases/bulk', { method: 'POST', auth, json: { ids: [a], action: 'burn' } }),
      400,
      'BadRequest',
    );

    expect((await api(`/releases/${a}`, { method: 'DELETE', auth })).body).toEqual({ deleted: true });
    expectError(await api(`/releases/${a}`, { method: 'DELETE', auth }), 404, 'NotFound');
    expect(
      (await api('/releases/bulk', { method: 'POST', auth, json: { ids: [b], action: 'delete' } })).body.affected,
    ).toBe(1);
    expect(await counts('all')).toBe(1);
    // Deleted releases are recorded again by the next poll, announced.
    await pollSeriesNow(auth, seriesId);
    expect(await counts('announced')).toBe(3);
    // The series' own ledger, every state by default.
    const own = await api(`/series/${seriesId}/releases`, { auth });
    expect(own.body.total).toBe(3);
  });
});

describe('release sources (issue 32; admins only)', () => {
  it('lists, re-paces, disables, polls now and resets; a maintainer gets 403', async () => {
    const admin = await setupAdmin();
    const maintainer = await createUser(admin.auth, { role: 'maintainer' });
    const them = (await login(maintainer.username, maintainer.password)).auth;
    expectError(await api('/release-sources', { auth: them }), 403, 'Forbidden');

    const sources = await sourcesOf(admin.auth);
    expect(sources.map((s) => [s.pluginId, s.enabled, s.status, s.pollIntervalS])).toEqual([
      ['anilist', true, 'never_polled', 86_400],
      ['mangaupdates', true, 'never_polled', 86_400],
    ]);
    const mu = sources.find((s) => s.pluginId === 'mangaupdates')?.id as string;
    const paced = await api(`/release-sources/${mu}`, {
      method: 'PATCH',
      auth: admin.auth,
      json: { pollIntervalS: 43_200 },
    });
    expect(paced.body).toMatchObject({ pollIntervalS: 43_200, enabled: true });
    expectError(
      await api(`/release-sources/${mu}`, { method: 'PATCH', auth: admin.auth, json: { pollIntervalS: 5 } }),
      400,
      'BadRequest',
    );
    expectError(
      await api(`/release-sources/${crypto.randomUUID()}/poll-now`, { method: 'POST', auth: admin.auth }),
      404,
      'NotFound',
    );

    // A tracked series, polled by the source's poll-now.
    const title = `Source ${crypto.randomUUID().slice(0, 6)}`;
    const id = uniqueMangaUpdatesId();
    await fakeMangaUpdates(id, { title, latestChapter: 2, releases: [{ id: 2, chapter: '2' }] });
    const { seriesId } = await scanSeries(admin.auth, title, [{ chapter: 1 }]);
    await patchTracking(admin.auth, seriesId, { tracked: true });
    await api(`/series/${seriesId}/external-ids`, {
      method: 'POST',
      auth: admin.auth,
      json: { source: 'mangaupdates', externalId: id },
    });
    const now = await api(`/release-sources/${mu}/poll-now`, { method: 'POST', auth: admin.auth });
    expect(now.status, now.text).toBe(202);
    expect(now.body).toMatchObject({ status: 'enqueued', polls: 1 });
    for (let i = 0; (await api('/releases', { auth: admin.auth })).body.total < 1; i++) {
      if (i > 200) throw new Error('the source poll recorded nothing');
      await sleep(50);
    }
    const polled = (await sourcesOf(admin.auth)).find((s) => s.id === mu);
    expect(polled).toMatchObject({ status: 'ok', trackedSeries: 1 });
    // Poll-now-all makes every enabled source's series due.
    expect((await api('/release-sources/poll-now-all', { method: 'POST', auth: admin.auth })).body).toMatchObject({
      considered: 2,
      enqueued: 2,
    });

    const reset = await api(`/release-sources/${mu}/reset`, { method: 'POST', auth: admin.auth });
    expect(reset.body.deletedLedgerEntries).toBeGreaterThanOrEqual(1);
    expect((await sourcesOf(admin.auth)).find((s) => s.id === mu)).toMatchObject({ status: 'never_polled' });

    expect(
      (await api(`/release-sources/${mu}`, { method: 'PATCH', auth: admin.auth, json: { enabled: false } })).body
        .enabled,
    ).toBe(false);
    expectError(await api(`/release-sources/${mu}/poll-now`, { method: 'POST', auth: admin.auth }), 409, 'Conflict');
  });

  it('the cron hands due polls to the release-poll queue, and not again while they are leased', async () => {
    const { auth } = await setupAdmin();
    const title = `Cron ${crypto.randomUUID().slice(0, 6)}`;
    const mu = uniqueMangaUpdatesId();
    const al = uniqueAniListId();
    await fakeMangaUpdates(mu, { title, latestChapter: 9, releases: [{ id: 9, chapter: '9' }] });
    await fakeAniList(al, { title: { romaji: title }, chapters: 9, volumes: 1, status: 'FINISHED' });
    const { seriesId } = await scanSeries(auth, title, [{ chapter: 8 }]);
    await patchTracking(auth, seriesId, { tracked: true });
    await api(`/series/${seriesId}/external-ids`, {
      method: 'POST',
      auth,
      json: { source: 'mangaupdates', externalId: mu },
    });
    await api(`/series/${seriesId}/external-ids`, {
      method: 'POST',
      auth,
      json: { source: 'anilist', externalId: al },
    });
    const tick = async () => {
      const ctx = createExecutionContext();
      await worker.scheduled(createScheduledController({ scheduledTime: new Date(), cron: '* * * * *' }), env, ctx);
      await waitOnExecutionContext(ctx);
    };
    await tick();
    for (let i = 0; ; i++) {
      const sources = (await trackingOf(auth, seriesId)).sources as Array<{ lastPolledAt: string | null }>;
      if (sources.every((s) => s.lastPolledAt)) break;
      if (i > 200) throw new Error(`the cron's polls did not run: ${JSON.stringify(sources)}`);
      await sleep(50);
    }
    const polled = await trackingOf(auth, seriesId);
    expect((await api(`/series/${seriesId}`, { auth })).body).toMatchObject({ upstreamChapterGap: 1 });
    // Polled: due again in the source's interval (24 h), not at the next tick.
    for (const source of polled.sources as Array<{ nextPollAt: string; lastPolledAt: string }>) {
      expect(Date.parse(source.nextPollAt) - Date.parse(source.lastPolledAt)).toBeGreaterThanOrEqual(86_000_000);
    }
    await tick();
    await sleep(300);
    expect((await trackingOf(auth, seriesId)).sources.map((s: { lastPolledAt: string }) => s.lastPolledAt)).toEqual(
      polled.sources.map((s: { lastPolledAt: string }) => s.lastPolledAt),
    );
  });
});

describe('releases and access (issue 32; docs/DECISIONS.md §Organise and share)', () => {
  it('a restricted reader sees releases, and release_announced events, only of series they may see', async () => {
    const f = await buildAccessFixture();
    const user: Credentials = { apiKey: f.userKey };
    const releases = new Map<string, string>();
    for (const marker of ['xteen', 'xsecret'] as const) {
      const id = uniqueMangaUpdatesId();
      releases.set(marker, id);
      // Release ids are MangaUpdates' own, unique across series.
      await fakeMangaUpdates(id, {
        title: `Zork ${marker}`,
        latestChapter: 5,
        releases: [{ id: Number(id), chapter: '5' }],
      });
      const seriesId = f.series[marker].seriesId;
      expect((await patchTracking(f.admin, seriesId, { tracked: true })).status).toBe(200);
      await api(`/series/${seriesId}/external-ids`, {
        method: 'POST',
        auth: f.admin,
        json: { source: 'mangaupdates', externalId: id },
      });
    }
    const adminStream = await openStream('/api/v1/events/stream', f.admin);
    const userStream = await openStream('/api/v1/events/stream', user);
    try {
      for (const marker of ['xsecret', 'xteen'] as const) await pollSeriesNow(f.admin, f.series[marker].seriesId);
      const all = (await api('/releases', { auth: f.admin })).body.data as Array<{ id: string; seriesId: string }>;
      const of = (marker: 'xteen' | 'xsecret') =>
        all.find((r) => r.seriesId === f.series[marker].seriesId)?.id as string;
      await adminStream.waitFor(`"ledger_id":"${of('xsecret')}"`);
      // The visible series' release, announced last, reaches the reader: every earlier event was decided.
      await adminStream.waitFor(`"ledger_id":"${of('xteen')}"`);
      await userStream.waitFor(`"ledger_id":"${of('xteen')}"`);
      expect(userStream.text()).not.toContain(of('xsecret'));
      expect(userStream.text()).not.toContain(f.series.xsecret.seriesId);

      const seen = (await api('/releases?state=all', { auth: user })).body;
      expect(seen.data.map((r: { seriesId: string }) => r.seriesId)).toEqual([f.series.xteen.seriesId]);
      expect(seen.total).toBe(1);
      // A hidden series' release answers as an unknown one; a bulk action skips it.
      expectError(await api(`/releases/${of('xsecret')}/dismiss`, { method: 'POST', auth: user }), 404, 'NotFound');
      expect(
        (
          await api('/releases/bulk', {
            method: 'POST',
            auth: user,
            json: { ids: [of('xsecret'), of('xteen')], action: 'dismiss' },
          })
        ).body,
      ).toEqual({ affected: 1, action: 'dismiss' });
      expect((await api(`/releases?state=dismissed`, { auth: f.admin })).body.total).toBe(1);
      expectError(await api(`/series/${f.series.xsecret.seriesId}/tracking`, { auth: user }), 404, 'NotFound');
    } finally {
      await adminStream.close();
      await userStream.close();
    }
  }, 120_000);
});
