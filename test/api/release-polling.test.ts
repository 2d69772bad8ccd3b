/**
 * Issue 32, "Done when" and "Tests without the internet": tracked series polled through the fake MangaUpdates
 * and AniList (test/support/provider-fakes, answering with the vendored example bodies) by the real
 * release-poll queue consumer — first poll, repeat poll, a new chapter, a series found by an alias, a 429
 * with Retry-After, a provider that does not answer in time, malformed JSON — and what a user sees: the gap
 * fields on GET /series/{id} and in lists, the releases in /releases, `release_announced` on
 * /events/stream, and a release that leaves the inbox when a scan brings its chapter in.
 */
import { describe, expect, it } from 'vitest';
import { api, type Credentials } from '../support/http';
import { setupAdmin } from '../support/factories';
import { openStream } from '../support/open-stream';
import {
  fakeAniList,
  fakeMangaUpdates,
  fakeRequests,
  pollSeriesNow,
  putChapters,
  scanSeries,
  sourceNamed,
  trackingOf,
  uniqueAniListId,
  uniqueMangaUpdatesId,
} from '../support/release-tracking';
import { scan } from '../support/scans';
import { waitForTasks } from '../support/tasks';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Chapters 1–11 on disk: 1–6 in volume 1, 7–11 in volume 2. */
const ELEVEN_CHAPTERS = Array.from({ length: 11 }, (_, i) => ({ chapter: i + 1, volume: i < 6 ? 1 : 2 }));

/** MangaUpdates' view of the same series: chapter 14 out, 3 volumes, the three newest releases. */
function upstream(title: string, more: Array<{ id: number; chapter: string; volume?: string }> = []) {
  return {
    title,
    latestChapter: 14 + more.length,
    status: '3 Volumes (Ongoing)',
    releases: [
      ...more.reverse(),
      { id: 14, chapter: '14', volume: '3', group: 'Lunar Scans' },
      { id: 13, chapter: '13', volume: '3', group: 'Lunar Scans' },
      { id: 12, chapter: '12', group: 'Lunar Scans' },
    ],
  };
}

/** A series on disk, tracked, with its MangaUpdates and AniList ids; returns its ids at the providers. */
async function trackedSeries(auth: Credentials, title: string, chapters = ELEVEN_CHAPTERS) {
  const mu = uniqueMangaUpdatesId();
  const al = uniqueAniListId();
  await fakeMangaUpdates(mu, upstream(title));
  // AniList knows the series but, as for most ongoing manga, no counts.
  await fakeAniList(al, {
    title: { romaji: title, english: null, native: null },
    status: 'RELEASING',
    chapters: null,
    volumes: null,
  });
  const { seriesId, libraryId } = await scanSeries(auth, title, chapters);
  const on = await api(`/series/${seriesId}/tracking`, { method: 'PATCH', auth, json: { tracked: true } });
  expect(on.status, on.text).toBe(200);
  for (const [source, externalId] of [
    ['mangaupdates', mu],
    ['anilist', al],
  ]) {
    const set = await api(`/series/${seriesId}/external-ids`, { method: 'POST', auth, json: { source, externalId } });
    expect(set.status, set.text).toBe(200);
  }
  return { seriesId, libraryId, mu, al };
}

const inbox = async (auth: Credentials, query = '') =>
  (await api(`/releases?pageSize=500${query}`, { auth })).body as {
    data: Array<{
      id: string;
      seriesId: string;
      chapters: Array<{ start: number; end: number }> | null;
      state: string;
    }>;
    total: number;
  };
const chaptersOf = (page: Awaited<ReturnType<typeof inbox>>, seriesId: string) =>
  page.data
    .filter((r) => r.seriesId === seriesId)
    .map((r) => r.chapters?.[0]?.end)
    .sort((a, b) => (a ?? 0) - (b ?? 0));

describe('polling a tracked series through the fake MangaUpdates (issue 32, Done when)', () => {
  it('brings the gap fields, the releases, release_announced, and clears a release when its chapter is scanned in', async () => {
    const { auth } = await setupAdmin();
    const title = `Tsuki ${crypto.randomUUID().slice(0, 6)}`;
    const { seriesId, libraryId, mu } = await trackedSeries(auth, title);
    const metadataBefore = (await api(`/series/${seriesId}/metadata`, { auth })).body;
    // Tracked, never polled: no provider count yet, so no gap.
    expect((await api(`/series/${seriesId}`, { auth })).body).toMatchObject({
      tracked: true,
      localMaxChapter: 11,
      localMaxVolume: 2,
      upstreamChapterGap: null,
      upstreamVolumeGap: null,
    });

    const events = await openStream('/api/v1/events/stream', auth);
    try {
      const tracking = await pollSeriesNow(auth, seriesId);
      expect(sourceNamed(tracking, 'mangaupdates')).toMatchObject({
        lastError: null,
        externalId: mu,
        chapterCount: 14,
        volumeCount: 3,
      });
      expect(tracking).toMatchObject({
        upstreamProvider: 'MangaUpdates',
        upstreamChapterCount: 14,
        upstreamVolumeCount: 3,
      });

      // "3 chapters and 1 volume behind, MangaUpdates": on the series and in the lists.
      const gaps = { tracked: true, upstreamChapterGap: 3, upstreamVolumeGap: 1, upstreamGapProvider: 'MangaUpdates' };
      expect((await api(`/series/${seriesId}`, { auth })).body).toMatchObject(gaps);
      const listed = (await api(`/series?library_id=${libraryId}`, { auth })).body.data;
      expect(listed.find((s: { id: string }) => s.id === seriesId)).toMatchObject(gaps);

      // Chapters above what the library held when tracking began (11): 12, 13 and 14, announced.
      const announced = await inbox(auth);
      expect(chaptersOf(announced, seriesId)).toEqual([12, 13, 14]);
      expect(announced.data.find((r) => r.chapters?.[0]?.end === 14)).toMatchObject({
        seriesTitle: title,
        state: 'announced',
        volumes: [{ start: 3, end: 3 }],
        language: 'en',
        groupOrUploader: 'Lunar Scans',
        externalReleaseId: 'mangaupdates:14',
        confidence: 1,
      });
      for (const release of announced.data) {
        await events.waitFor(`"ledger_id":"${release.id}"`);
      }
      expect(events.text()).toContain('event: release_announced');
      expect(events.text()).toContain(`"series_title":"${title}"`);
    } finally {
      await events.close();
    }

    // Nothing the provider said changed the series' metadata.
    expect((await api(`/series/${seriesId}/metadata`, { auth })).body).toEqual(metadataBefore);

    // A scan that brings chapter 12 in: that release is acquired, the others stay new.
    const prefix = (await api(`/libraries/${libraryId}`, { auth })).body.path;
    await putChapters(prefix, title, [{ chapter: 12, volume: 2 }]);
    const done = await scan(auth, libraryId);
    await waitForTasks(auth, libraryId, { since: done.completedAt ?? '' });
    expect(chaptersOf(await inbox(auth), seriesId)).toEqual([13, 14]);
    expect(chaptersOf(await inbox(auth, '&state=marked_acquired'), seriesId)).toEqual([12]);
    expect((await api(`/series/${seriesId}`, { auth })).body).toMatchObject({
      upstreamChapterGap: 2,
      upstreamVolumeGap: 1,
    });
  });

  it('records nothing new on a repeat poll, and a new chapter once the provider has one', async () => {
    const { auth } = await setupAdmin();
    const title = `Hoshi ${crypto.randomUUID().slice(0, 6)}`;
    const { seriesId, mu } = await trackedSeries(auth, title);
    const first = await pollSeriesNow(auth, seriesId);
    const firstPoll = sourceNamed(first, 'mangaupdates').lastPolledAt;
    expect(chaptersOf(await inbox(auth), seriesId)).toEqual([12, 13, 14]);

    const events = await openStream('/api/v1/events/stream', auth);
    try {
      const again = await pollSeriesNow(auth, seriesId);
      expect(sourceNamed(again, 'mangaupdates').lastPolledAt).not.toBe(firstPoll);
      expect((await inbox(auth, '&state=all')).data.filter((r) => r.seriesId === seriesId)).toHaveLength(3);

      await fakeMangaUpdates(mu, upstream(title, [{ id: 15, chapter: '15', volume: '3' }]));
      await pollSeriesNow(auth, seriesId);
      expect(chaptersOf(await inbox(auth), seriesId)).toEqual([12, 13, 14, 15]);
      const fifteen = (await inbox(auth)).data.find((r) => r.seriesId === seriesId && r.chapters?.[0]?.end === 15);
      await events.waitFor(`"ledger_id":"${fifteen?.id}"`);
      // Only the new chapter was announced on this stream, opened after the first poll.
      expect(events.text().match(/event: release_announced/g)).toHaveLength(1);
    } finally {
      await events.close();
    }
    expect((await api(`/series/${seriesId}`, { auth })).body).toMatchObject({ upstreamChapterGap: 4 });
    expect(await trackingOf(auth, seriesId)).toMatchObject({ latestKnownChapter: 15, latestKnownVolume: 3 });
  });

  it('finds a series the provider knows under another name through an alias', async () => {
    const { auth } = await setupAdmin();
    const local = `Boku ${crypto.randomUUID().slice(0, 6)}`;
    const upstreamName = `Moon Hero ${crypto.randomUUID().slice(0, 6)}`;
    const mu = uniqueMangaUpdatesId();
    await fakeMangaUpdates(mu, upstream(upstreamName));
    const { seriesId } = await scanSeries(auth, local, ELEVEN_CHAPTERS);
    expect((await api(`/series/${seriesId}/tracking`, { method: 'PATCH', auth, json: { tracked: true } })).status).toBe(
      200,
    );
    // AniList plays no part here.
    const sources = (await api('/release-sources', { auth })).body.sources as Array<{ id: string; pluginId: string }>;
    const aniList = sources.find((s) => s.pluginId === 'anilist')?.id;
    expect((await api(`/release-sources/${aniList}`, { method: 'PATCH', auth, json: { enabled: false } })).status).toBe(
      200,
    );

    const unknown = await pollSeriesNow(auth, seriesId);
    expect(sourceNamed(unknown, 'mangaupdates').lastError).toBe(
      `MangaUpdates has no series named "${local}" or any of its other titles and aliases`,
    );
    expect(chaptersOf(await inbox(auth), seriesId)).toEqual([]);

    const alias = await api(`/series/${seriesId}/aliases`, {
      method: 'POST',
      auth,
      json: { alias: upstreamName.toUpperCase() },
    });
    expect(alias.status, alias.text).toBe(201);
    const found = await pollSeriesNow(auth, seriesId);
    expect(sourceNamed(found, 'mangaupdates')).toMatchObject({ lastError: null, externalId: mu, chapterCount: 14 });
    expect(chaptersOf(await inbox(auth), seriesId)).toEqual([12, 13, 14]);
    // Found by name, not by an id: a little less sure.
    expect((await inbox(auth)).data.find((r) => r.seriesId === seriesId)).toMatchObject({ confidence: 0.9 });
    // The id found is remembered: the next poll asks no search.
    const searches = (await fakeRequests(upstreamName.toUpperCase())).length;
    await pollSeriesNow(auth, seriesId);
    expect((await fakeRequests(upstreamName.toUpperCase())).length).toBe(searches);
  });

  it('backs off on a 429 with Retry-After: the source is Errored, nothing is recorded, no request until it passes', async () => {
    const { auth } = await setupAdmin();
    const title = `Kaze ${crypto.randomUUID().slice(0, 6)}`;
    const { seriesId, mu } = await trackedSeries(auth, title);
    await fakeMangaUpdates(mu, { ...upstream(title), behaviour: 'rate-limit', retryAfter: 120 });
    const polled = await pollSeriesNow(auth, seriesId);
    const message = 'MangaUpdates is rate limiting Longbox (429): asked to wait 120 s';
    expect(sourceNamed(polled, 'mangaupdates').lastError).toBe(message);
    const source = ((await api('/release-sources', { auth })).body.sources as Array<Record<string, unknown>>).find(
      (s) => s.pluginId === 'mangaupdates',
    );
    expect(source).toMatchObject({ status: 'errored', lastError: message });
    const wait = Date.parse(source?.backoffUntil as string) - Date.now();
    expect(wait).toBeGreaterThan(100_000);
    expect(wait).toBeLessThanOrEqual(120_000);
    expect(chaptersOf(await inbox(auth, '&state=all'), seriesId)).toEqual([]);

    // Asked again at once: the poll is queued, but MangaUpdates is not asked before its 120 s are over.
    const asked = (await fakeRequests(mu)).length;
    expect((await api(`/series/${seriesId}/tracking/poll-now`, { method: 'POST', auth })).status).toBe(202);
    await sleep(1500);
    expect((await fakeRequests(mu)).length).toBe(asked);
  });

  it('gives up on a provider that does not answer in time, and records nothing', async () => {
    const { auth } = await setupAdmin();
    const title = `Ame ${crypto.randomUUID().slice(0, 6)}`;
    const { seriesId, mu } = await trackedSeries(auth, title);
    await fakeMangaUpdates(mu, { ...upstream(title), behaviour: 'timeout', delayMs: 3000 });
    const polled = await pollSeriesNow(auth, seriesId);
    expect(sourceNamed(polled, 'mangaupdates').lastError).toBe('MangaUpdates did not answer within 0.5 s');
    const source = ((await api('/release-sources', { auth })).body.sources as Array<Record<string, unknown>>).find(
      (s) => s.pluginId === 'mangaupdates',
    );
    expect(source).toMatchObject({ status: 'errored', lastError: 'MangaUpdates did not answer within 0.5 s' });
    expect(chaptersOf(await inbox(auth, '&state=all'), seriesId)).toEqual([]);
    expect((await api(`/series/${seriesId}`, { auth })).body).toMatchObject({ upstreamChapterGap: null });
  });

  it('marks the source Errored with the message on malformed JSON, and changes no ledger row', async () => {
    const { auth } = await setupAdmin();
    const title = `Yuki ${crypto.randomUUID().slice(0, 6)}`;
    const { seriesId, mu } = await trackedSeries(auth, title);
    await pollSeriesNow(auth, seriesId);
    const dismissed = (await inbox(auth)).data.find((r) => r.seriesId === seriesId && r.chapters?.[0]?.end === 13);
    expect((await api(`/releases/${dismissed?.id}/dismiss`, { method: 'POST', auth })).status).toBe(200);
    const before = (await inbox(auth, '&state=all')).data.filter((r) => r.seriesId === seriesId);

    for (const behaviour of ['malformed', 'wrong-shape'] as const) {
      await fakeMangaUpdates(mu, { ...upstream(title, [{ id: 15, chapter: '15' }]), behaviour });
      const polled = await pollSeriesNow(auth, seriesId);
      const error = sourceNamed(polled, 'mangaupdates').lastError;
      expect(error).toMatch(
        behaviour === 'malformed'
          ? /^MangaUpdates answered malformed JSON: /
          : /^MangaUpdates answered JSON of an unexpected shape: /,
      );
      const source = ((await api('/release-sources', { auth })).body.sources as Array<Record<string, unknown>>).find(
        (s) => s.pluginId === 'mangaupdates',
      );
      expect(source).toMatchObject({ status: 'errored', lastError: error });
      expect((await inbox(auth, '&state=all')).data.filter((r) => r.seriesId === seriesId)).toEqual(before);
    }
    // The counts it had stay: a garbled answer does not erase what was known.
    expect((await api(`/series/${seriesId}`, { auth })).body).toMatchObject({ upstreamChapterGap: 3 });
  });

  it('takes the counts of the provider furthest ahead: AniList, counts only, when it knows more', async () => {
    const { auth } = await setupAdmin();
    const title = `Tsubasa ${crypto.randomUUID().slice(0, 6)}`;
    const { seriesId, al } = await trackedSeries(auth, title);
    await fakeAniList(al, { title: { romaji: title }, status: 'FINISHED', chapters: 20, volumes: 4 });
    const polled = await pollSeriesNow(auth, seriesId);
    expect(sourceNamed(polled, 'anilist')).toMatchObject({ chapterCount: 20, volumeCount: 4, lastError: null });
    expect(polled).toMatchObject({ upstreamProvider: 'AniList', upstreamStatus: 'complete' });
    expect((await api(`/series/${seriesId}`, { auth })).body).toMatchObject({
      upstreamChapterGap: 9,
      upstreamVolumeGap: 2,
      upstreamGapProvider: 'AniList',
    });
    // AniList lists no releases: the ledger has MangaUpdates' only.
    const sources = (await inbox(auth)).data.filter((r) => r.seriesId === seriesId);
    expect(sources.length).toBe(3);
  });
});
