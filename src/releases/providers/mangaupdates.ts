/**
 * MangaUpdates (https://api.mangaupdates.com, public API v1, no account needed). A poll is two requests:
 * `GET /series/{id}` (SeriesModelV1: `latest_chapter`, and `status` such as "38 Volumes (Ongoing)") and
 * `POST /releases/search` with `search_type: "series"` (ReleaseSearchResponseV1: the series' scanlation
 * releases, newest first). A series without an id is found with `POST /series/search` (SeriesSearchResponseV1).
 * Field names are the API's OpenAPI models; test/vendor/mangaupdates/ holds the example answers the tests'
 * fake serves. Ids: the API takes the numeric id; public pages carry it in base 36 (`/series/6z1uqw7/...`),
 * as Codex-rs's MangaUpdates plugin decodes it.
 */
import { z } from 'zod';
import { normalizeTitle } from '../names';
import { parseSpan } from '../numbers';
import type { ProviderContext, ProviderRelease, ProviderSnapshot, ReleaseProvider } from '../provider';

const SeriesSchema = z.object({
  series_id: z.number(),
  title: z.string(),
  url: z.string().nullish(),
  associated: z.array(z.object({ title: z.string() })).nullish(),
  status: z.string().nullish(),
  latest_chapter: z.number().nullish(),
  completed: z.boolean().nullish(),
});

const ReleaseSearchSchema = z.object({
  total_hits: z.number().nullish(),
  results: z.array(
    z.object({
      record: z.object({
        id: z.number(),
        title: z.string().nullish(),
        volume: z.string().nullish(),
        chapter: z.string().nullish(),
        groups: z.array(z.object({ name: z.string().nullish() })).nullish(),
        release_date: z.string().nullish(),
      }),
    }),
  ),
});

const SeriesSearchSchema = z.object({
  results: z.array(
    z.object({
      hit_title: z.string().nullish(),
      record: z.object({ series_id: z.number(), title: z.string() }),
    }),
  ),
});

/** Releases asked for per poll: the newest; older ones were seen by earlier polls. */
const RELEASES_PER_POLL = 25;

/** "38 Volumes (Ongoing)" → 38; "311 Chapters (Complete)" → null. */
export function volumesOfStatus(status: string | null | undefined): number | null {
  const match = status?.match(/(\d+)\s+Volumes?\b/i);
  return match ? Number(match[1]) : null;
}

/** The status in parentheses, when every parenthesis agrees (Komf's reading of the same field). */
export function stateOfStatus(status: string | null | undefined): string | null {
  const states = [...(status ?? '').matchAll(/\(([^)]*)\)/g)].map((m) => (m[1] ?? '').trim().toLowerCase());
  const first = states[0];
  if (!first || !states.every((s) => s === first)) return null;
  return ['ongoing', 'complete', 'hiatus', 'cancelled'].includes(first) ? first : null;
}

/** "2026-11-30" (a date) → an ISO instant at its midnight UTC; anything else → null. */
function releaseDate(text: string | null | undefined): string | null {
  if (!text || !/^\d{4}-\d{2}-\d{2}/.test(text)) return null;
  const date = new Date(`${text.slice(0, 10)}T00:00:00.000Z`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

function toRelease(
  record: z.infer<typeof ReleaseSearchSchema>['results'][number]['record'],
  seriesPage: string,
): ProviderRelease | null {
  const chapters = parseSpan(record.chapter, false);
  const volumes = parseSpan(record.volume, true);
  // Announcements without a number ("oneshot", a series name alone) say nothing a collection can act on.
  if (!chapters && !volumes) return null;
  const groups = (record.groups ?? []).map((g) => g.name?.trim()).filter((name): name is string => !!name);
  return {
    externalReleaseId: `mangaupdates:${record.id}`,
    chapters,
    volumes,
    // MangaUpdates lists scanlation releases in English (Codex-rs's plugin reads them as `en` too).
    language: 'en',
    group: groups.length > 0 ? groups.join(', ') : null,
    payloadUrl: seriesPage,
    releasedAt: releaseDate(record.release_date),
    title: record.title ?? null,
  };
}

export const mangaUpdates: ReleaseProvider = {
  key: 'mangaupdates',
  displayName: 'MangaUpdates',
  kind: 'api-feed',
  defaultBaseUrl: 'https://api.mangaupdates.com/v1',
  // MangaUpdates publishes no limit: one request a second still polls 10,000 series a day in under 6 hours.
  defaultMinIntervalMs: 1000,
  requestsPerPoll: 2,
  linkHosts: ['mangaupdates.com'],

  normalizeId(raw) {
    const text = raw.trim();
    if (/^\d{1,16}$/.test(text)) return String(Number(text));
    // A public page's slug: the numeric id in base 36.
    if (/^[0-9a-z]{1,11}$/i.test(text)) {
      const decoded = Number.parseInt(text, 36);
      return Number.isSafeInteger(decoded) && decoded > 0 ? String(decoded) : null;
    }
    return null;
  },

  idFromLink(url) {
    const host = url.hostname.replace(/^www\./, '');
    if (host === 'mangaupdates.com') {
      const slug = url.pathname.match(/^\/series\/([0-9a-z]+)(?:\/|$)/i)?.[1];
      return slug ? mangaUpdates.normalizeId(slug) : null;
    }
    if (host === 'api.mangaupdates.com') {
      const id = url.pathname.match(/^\/v1\/series\/(\d+)(?:\/|$)/)?.[1];
      return id ? mangaUpdates.normalizeId(id) : null;
    }
    return null;
  },

  seriesUrl(id) {
    return `https://www.mangaupdates.com/series/${Number(id).toString(36)}`;
  },

  async find({ http, baseUrl }: ProviderContext, names) {
    for (const name of names) {
      const wanted = normalizeTitle(name);
      if (!wanted) continue;
      const found = await http.json(
        { method: 'POST', url: `${baseUrl}/series/search`, body: { search: name, stype: 'title', perpage: 10 } },
        SeriesSearchSchema,
      );
      const match = found.results.find(
        (r) => normalizeTitle(r.record.title) === wanted || (r.hit_title && normalizeTitle(r.hit_title) === wanted),
      );
      if (match) return String(match.record.series_id);
    }
    return null;
  },

  async poll({ http, baseUrl }: ProviderContext, id): Promise<ProviderSnapshot> {
    const series = await http.json({ method: 'GET', url: `${baseUrl}/series/${id}` }, SeriesSchema);
    const found = await http.json(
      {
        method: 'POST',
        url: `${baseUrl}/releases/search`,
        body: { search: id, search_type: 'series', orderby: 'date', asc: 'desc', perpage: RELEASES_PER_POLL },
      },
      ReleaseSearchSchema,
    );
    const page = series.url ?? mangaUpdates.seriesUrl(id);
    const releases = found.results.flatMap((r) => toRelease(r.record, page) ?? []);
    const newestChapter = Math.max(-1, ...releases.map((r) => r.chapters?.end ?? -1));
    const latest = series.latest_chapter ?? null;
    return {
      title: series.title,
      // `latest_chapter` is MangaUpdates' count; a release newer than it (not yet counted) counts too.
      chapterCount: latest === null && newestChapter < 0 ? null : Math.max(latest ?? 0, newestChapter),
      volumeCount: volumesOfStatus(series.status),
      status: series.completed ? 'complete' : stateOfStatus(series.status),
      releases,
    };
  },
};
