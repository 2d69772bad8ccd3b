/**
 * AniList (https://docs.anilist.co, GraphQL at https://graphql.anilist.co, no account needed): a manga's
 * `chapters`, `volumes` and `status` (MediaStatus) in one `Media` query. AniList fills the counts when a series
 * has ended (and for some ongoing ones); it lists no releases, so it is a counts-only source
 * (`metadata-feed`): it brings the gap fields, never ledger rows. A series without an id is found through
 * `Page.media(search:)` and matched exactly on its titles and synonyms. test/vendor/anilist/ holds the example
 * answers the tests' fake serves.
 */
import { z } from 'zod';
import { normalizeTitle } from '../names';
import type { ProviderContext, ProviderSnapshot, ReleaseProvider } from '../provider';

const TitleSchema = z.object({
  romaji: z.string().nullish(),
  english: z.string().nullish(),
  native: z.string().nullish(),
});

const MediaQuery = `query ($id: Int) {
  Media(id: $id, type: MANGA) { id title { romaji english native } synonyms status chapters volumes siteUrl }
}`;

const MediaSchema = z.object({
  data: z.object({
    Media: z.object({
      id: z.number(),
      title: TitleSchema,
      synonyms: z.array(z.string()).nullish(),
      status: z.string().nullish(),
      chapters: z.number().nullish(),
      volumes: z.number().nullish(),
      siteUrl: z.string().nullish(),
    }),
  }),
});

const SearchQuery = `query ($search: String) {
  Page(perPage: 10) { media(search: $search, type: MANGA) { id title { romaji english native } synonyms } }
}`;

const SearchSchema = z.object({
  data: z.object({
    Page: z.object({
      media: z.array(z.object({ id: z.number(), title: TitleSchema, synonyms: z.array(z.string()).nullish() })),
    }),
  }),
});

/** AniList's MediaStatus as Longbox names a series' state. */
const STATES: Record<string, string> = {
  FINISHED: 'complete',
  RELEASING: 'ongoing',
  HIATUS: 'hiatus',
  CANCELLED: 'cancelled',
  NOT_YET_RELEASED: 'upcoming',
};

export const aniList: ReleaseProvider = {
  key: 'anilist',
  displayName: 'AniList',
  kind: 'metadata-feed',
  defaultBaseUrl: 'https://graphql.anilist.co',
  // AniList documents 90 requests a minute and serves 30 while "degraded" (its X-RateLimit-Limit header).
  defaultMinIntervalMs: 2000,
  requestsPerPoll: 1,
  linkHosts: ['anilist.co'],

  normalizeId(raw) {
    const text = raw.trim();
    return /^\d{1,9}$/.test(text) && Number(text) > 0 ? String(Number(text)) : null;
  },

  idFromLink(url) {
    if (url.hostname.replace(/^www\./, '') !== 'anilist.co') return null;
    const id = url.pathname.match(/^\/manga\/(\d+)(?:\/|$)/)?.[1];
    return id ? aniList.normalizeId(id) : null;
  },

  seriesUrl(id) {
    return `https://anilist.co/manga/${id}`;
  },

  async find({ http, baseUrl }: ProviderContext, names) {
    for (const name of names) {
      const wanted = normalizeTitle(name);
      if (!wanted) continue;
      const found = await http.json(
        { method: 'POST', url: baseUrl, body: { query: SearchQuery, variables: { search: name } } },
        SearchSchema,
      );
      const match = found.data.Page.media.find((media) =>
        [media.title.romaji, media.title.english, media.title.native, ...(media.synonyms ?? [])].some(
          (title) => title && normalizeTitle(title) === wanted,
        ),
      );
      if (match) return String(match.id);
    }
    return null;
  },

  async poll({ http, baseUrl }: ProviderContext, id): Promise<ProviderSnapshot> {
    const { data } = await http.json(
      { method: 'POST', url: baseUrl, body: { query: MediaQuery, variables: { id: Number(id) } } },
      MediaSchema,
    );
    const media = data.Media;
    return {
      title: media.title.english ?? media.title.romaji ?? media.title.native ?? String(media.id),
      chapterCount: media.chapters ?? null,
      volumeCount: media.volumes ?? null,
      status: (media.status && STATES[media.status]) ?? null,
      releases: [],
    };
  },
};
