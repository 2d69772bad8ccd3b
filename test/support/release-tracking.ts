/**
 * Release-tracking test helpers: the fake providers' controls (test/support/provider-fakes, reached through the
 * test worker's outbound service as the server reaches them), a scanned series of numbered chapters, and
 * waiting for the release-poll queue's consumer to finish a poll.
 */
import { expect } from 'vitest';
import { api, type Credentials } from './http';
import { type ComicInfo, makeCbz, putObject } from './library-files';
import { createLibrary, scan } from './scans';
import { waitForTasks } from './tasks';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A MangaUpdates id nobody else's test uses (the fakes are shared by every test file). */
export const uniqueMangaUpdatesId = () => String(10_000_000_000 + Math.floor(Math.random() * 9_000_000_000));
export const uniqueAniListId = () => String(100_000 + Math.floor(Math.random() * 800_000_000));

async function control(path: string, body: unknown) {
  const response = await fetch(`http://mangaupdates.fake/__fake/${path}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.text()).toBe(200);
}

export interface FakeMangaUpdatesSeries {
  title?: string;
  associated?: string[];
  latestChapter?: number | null;
  status?: string;
  completed?: boolean;
  releases?: Array<{ id: number; chapter?: string; volume?: string; group?: string; releaseDate?: string }>;
  behaviour?: 'ok' | 'rate-limit' | 'unavailable' | 'timeout' | 'malformed' | 'wrong-shape';
  retryAfter?: number;
  delayMs?: number;
}

export const fakeMangaUpdates = (id: string, series: FakeMangaUpdatesSeries) =>
  control(`mangaupdates/series/${id}`, series);

export interface FakeAniListMedia {
  title?: { romaji?: string | null; english?: string | null; native?: string | null };
  synonyms?: string[];
  status?: string;
  chapters?: number | null;
  volumes?: number | null;
  behaviour?: 'ok' | 'rate-limit' | 'not-found' | 'malformed';
}

export const fakeAniList = (id: string, media: FakeAniListMedia) => control(`anilist/media/${id}`, media);

/** The provider requests the fakes received that mention `needle` (an id, a title). */
export async function fakeRequests(needle: string): Promise<Array<{ provider: string; method: string; path: string }>> {
  const all = (await (await fetch('http://mangaupdates.fake/__fake/requests')).json()) as Array<{
    provider: string;
    method: string;
    path: string;
    body: unknown;
  }>;
  return all.filter((r) => `${r.path} ${JSON.stringify(r.body)}`.includes(needle));
}

export interface ScannedSeries {
  libraryId: string;
  seriesId: string;
}

/** Uploads and scans one series of chapters (`Title ch.001.cbz`…, ComicInfo Number, optional Volume/Web). */
export async function scanSeries(
  auth: Credentials,
  title: string,
  chapters: Array<{ chapter: number; volume?: number; web?: string }>,
  libraryId?: string,
): Promise<ScannedSeries> {
  const library =
    libraryId ??
    (await createLibrary(auth, {
      name: `Manga ${crypto.randomUUID().slice(0, 8)}`,
      path: `manga-${crypto.randomUUID().slice(0, 8)}`,
    }));
  const prefix = (await api(`/libraries/${library}`, { auth })).body.path as string;
  await putChapters(prefix, title, chapters);
  const done = await scan(auth, library);
  await waitForTasks(auth, library, { since: done.completedAt ?? '' });
  const found = await api(`/series?library_id=${library}&pageSize=100`, { auth });
  const series = (found.body.data as Array<{ id: string; title: string }>).find((s) => s.title === title);
  if (!series) throw new Error(`no series "${title}" after the scan: ${found.text}`);
  return { libraryId: library, seriesId: series.id };
}

/** Uploads chapters of a series into a library's folder (scan it afterwards). */
export async function putChapters(
  prefix: string,
  title: string,
  chapters: Array<{ chapter: number; volume?: number; web?: string }>,
) {
  for (const { chapter, volume, web } of chapters) {
    const info: ComicInfo = {
      Series: title,
      Number: String(chapter),
      ...(volume ? { Volume: volume } : {}),
      ...(web ? { Web: web } : {}),
    };
    await putObject(`${prefix}/${title}/${title} ch.${String(chapter).padStart(3, '0')}.cbz`, await makeCbz(1, info));
  }
}

export interface TrackingSource {
  sourceId: string;
  pluginId: string;
  lastPolledAt: string | null;
  lastError: string | null;
  externalId: string | null;
  chapterCount: number | null;
  volumeCount: number | null;
}

/**
 * Asks for a poll of the series now and waits until every enabled source has polled it since (or recorded an
 * error); returns its tracking.
 */
export async function pollSeriesNow(auth: Credentials, seriesId: string, timeoutMs = 20_000) {
  const since = new Date().toISOString();
  const before = (await api(`/series/${seriesId}/tracking`, { auth })).body.sources as TrackingSource[];
  const queued = await api(`/series/${seriesId}/tracking/poll-now`, { method: 'POST', auth });
  expect(queued.status, queued.text).toBe(202);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const tracking = await api(`/series/${seriesId}/tracking`, { auth });
    const sources = tracking.body.sources as Array<TrackingSource & { enabled: boolean }>;
    const settled = sources
      .filter((s) => s.enabled)
      .every((s) => {
        const was = before.find((b) => b.sourceId === s.sourceId);
        return (s.lastPolledAt ?? '') >= since || (s.lastError !== null && s.lastError !== was?.lastError);
      });
    if (settled) return tracking.body;
    if (Date.now() > deadline) throw new Error(`the poll did not finish: ${tracking.text}`);
    await sleep(50);
  }
}

export const trackingOf = async (auth: Credentials, seriesId: string) =>
  (await api(`/series/${seriesId}/tracking`, { auth })).body;

export const sourceNamed = (tracking: { sources: TrackingSource[] }, pluginId: string) =>
  tracking.sources.find((s) => s.pluginId === pluginId) as TrackingSource;
