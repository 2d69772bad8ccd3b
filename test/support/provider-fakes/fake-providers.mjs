/**
 * A fake MangaUpdates (API v1) and a fake AniList (GraphQL) for the release-tracking tests, the browser tests
 * and the release-poll bench: they answer Longbox's real HTTP client (src/releases/provider-http.ts) with the
 * example bodies vendored in test/vendor/mangaupdates and test/vendor/anilist, changed only in the values a
 * test sets for its series. Plain JavaScript without imports, so it runs both as a miniflare auxiliary worker
 * (worker.mjs: the workers tests reach it through the test worker's outbound service) and in Node behind a
 * loopback HTTP server (node-server.mjs: `wrangler dev` reaches it at a configured base URL).
 *
 * Addressing: the host `mangaupdates.fake` / `anilist.fake`, or the path prefix `/mangaupdates` / `/anilist`.
 * Control (any host): `PUT /__fake/mangaupdates/series/{id}` and `PUT /__fake/anilist/media/{id}` set a series
 * (JSON below); `GET /__fake/requests` lists the provider requests received (newest last).
 *
 * A MangaUpdates series: `{title, associated: [titles], latestChapter, status, completed, releases: [{id,
 * chapter, volume, group, releaseDate}], behaviour, retryAfter, delayMs}`; an AniList one: `{title: {romaji,
 * english, native}, synonyms, status, chapters, volumes, behaviour, retryAfter, delayMs}`. `behaviour`:
 * `ok` (default), `rate-limit` (429 with `Retry-After: retryAfter`), `unavailable` (503), `timeout` (answers
 * after `delayMs`, default 3 s), `malformed` (a body that is not JSON), `wrong-shape` (JSON of another shape).
 * A series nobody set answers the vendored example with its id put in (what the bench polls).
 */

/** The title comparison providers' searches are matched with (src/releases/names.ts). */
const normalize = (title) =>
  String(title)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

const json = (body, status = 200, headers = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

const clone = (value) => JSON.parse(JSON.stringify(value));

/** `examples`: the vendored bodies, parsed: { muSeries, muReleases, muSearch, alMedia, alSearch, alNotFound }. */
export function createFakeProviders(examples) {
  const mangaUpdates = new Map();
  const aniList = new Map();
  const requests = [];

  /** The vendored series with this id and what the test set. */
  function muSeriesBody(id, set) {
    const body = clone(examples.muSeries);
    body.series_id = Number(id);
    body.url = `https://www.mangaupdates.com/series/${Number(id).toString(36)}/series`;
    if (set) {
      if (set.title !== undefined) body.title = set.title;
      if (set.associated !== undefined) body.associated = set.associated.map((title) => ({ title }));
      if (set.latestChapter !== undefined) body.latest_chapter = set.latestChapter;
      if (set.status !== undefined) body.status = set.status;
      if (set.completed !== undefined) body.completed = set.completed;
    } else {
      body.title = `Series ${id}`;
    }
    return body;
  }

  /** The vendored page of releases, its records replaced by the test's (or numbered after the id). */
  function muReleasesBody(id, set) {
    const body = clone(examples.muReleases);
    const template = body.results[0];
    const series = muSeriesBody(id, set);
    const releases =
      set?.releases ??
      body.results.map((result, k) => ({
        id: Number(`${id}${k}`),
        chapter: result.record.chapter,
        volume: result.record.volume,
        group: result.record.groups[0]?.name,
        releaseDate: result.record.release_date,
      }));
    body.results = releases.map((release) => {
      const result = clone(template);
      result.record.id = release.id;
      result.record.title = series.title;
      result.record.chapter = release.chapter ?? '';
      result.record.volume = release.volume ?? '';
      result.record.groups = release.group ? [{ ...template.record.groups[0], name: release.group }] : [];
      result.record.release_date = release.releaseDate ?? template.record.release_date;
      result.metadata.series = {
        ...result.metadata.series,
        series_id: series.series_id,
        title: series.title,
        url: series.url,
      };
      return result;
    });
    body.total_hits = body.results.length;
    return body;
  }

  function alMediaBody(id, set) {
    const body = clone(examples.alMedia);
    const media = body.data.Media;
    media.id = Number(id);
    media.siteUrl = `https://anilist.co/manga/${id}`;
    if (set)
      for (const key of ['title', 'synonyms', 'status', 'chapters', 'volumes'])
        if (set[key] !== undefined) media[key] = set[key];
    return body;
  }

  /** What a series' `behaviour` answers instead of its body, or null to answer normally. */
  async function misbehave(set) {
    switch (set?.behaviour ?? 'ok') {
      case 'rate-limit':
        return json({ status: 'exception', reason: 'Too many requests' }, 429, {
          'retry-after': String(set.retryAfter ?? 60),
        });
      case 'unavailable':
        return json({ status: 'exception', reason: 'Service unavailable' }, 503);
      case 'timeout':
        await new Promise((resolve) => setTimeout(resolve, set.delayMs ?? 3000));
        return null;
      case 'malformed':
        return new Response('{"series_id": 1, "title": "unterminated', {
          headers: { 'content-type': 'application/json' },
        });
      case 'wrong-shape':
        return json({ results: 'not a list', data: null });
      default:
        return null;
    }
  }

  async function mangaUpdatesAnswer(method, path, body) {
    const series = path.match(/^\/v1\/series\/(\d+)$/);
    if (method === 'GET' && series) {
      const set = mangaUpdates.get(series[1]);
      return (await misbehave(set)) ?? json(muSeriesBody(series[1], set));
    }
    if (method === 'POST' && path === '/v1/releases/search' && body?.search_type === 'series') {
      const set = mangaUpdates.get(String(body.search));
      return (await misbehave(set)) ?? json(muReleasesBody(String(body.search), set));
    }
    if (method === 'POST' && path === '/v1/series/search') {
      const wanted = normalize(body?.search ?? '');
      const page = clone(examples.muSearch);
      const template = page.results[0];
      page.results = [];
      for (const [id, set] of mangaUpdates) {
        const names = [set.title, ...(set.associated ?? [])].filter(Boolean);
        const hit = names.find((name) => normalize(name) === wanted);
        if (!hit) continue;
        const result = clone(template);
        result.record = { ...result.record, series_id: Number(id), title: set.title ?? `Series ${id}` };
        result.hit_title = hit;
        page.results.push(result);
      }
      page.total_hits = page.results.length;
      return json(page);
    }
    return json({ status: 'exception', reason: 'Not found' }, 404);
  }

  async function aniListAnswer(method, body) {
    if (method !== 'POST') return json({ errors: [{ message: 'POST a GraphQL query', status: 400 }] }, 400);
    const variables = body?.variables ?? {};
    if (/\bPage\b/.test(body?.query ?? '')) {
      const wanted = normalize(variables.search ?? '');
      const page = clone(examples.alSearch);
      const template = page.data.Page.media[0];
      page.data.Page.media = [];
      for (const [id, set] of aniList) {
        const title = set.title ?? template.title;
        const names = [title.romaji, title.english, title.native, ...(set.synonyms ?? [])].filter(Boolean);
        if (names.some((name) => normalize(name) === wanted)) {
          page.data.Page.media.push({ ...clone(template), id: Number(id), title, synonyms: set.synonyms ?? [] });
        }
      }
      return json(page);
    }
    const id = String(variables.id);
    const set = aniList.get(id);
    if (set?.behaviour === 'not-found') return json(examples.alNotFound, 404);
    return (await misbehave(set)) ?? json(alMediaBody(id, set));
  }

  async function control(method, path, body) {
    if (method === 'GET' && path === '/__fake/requests') return json(requests);
    const mu = path.match(/^\/__fake\/mangaupdates\/series\/(\d+)$/);
    if (method === 'PUT' && mu) {
      mangaUpdates.set(mu[1], body ?? {});
      return json({ ok: true });
    }
    const al = path.match(/^\/__fake\/anilist\/media\/(\d+)$/);
    if (method === 'PUT' && al) {
      aniList.set(al[1], body ?? {});
      return json({ ok: true });
    }
    return json({ error: 'unknown control request' }, 404);
  }

  return {
    /** The fake's answer, or null when the request is for neither fake (another host, another path). */
    async handle(request) {
      const url = new URL(request.url);
      const method = request.method;
      const text = method === 'GET' || method === 'HEAD' ? '' : await request.text();
      let body = null;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        body = null;
      }
      if (url.pathname.startsWith('/__fake/')) return control(method, url.pathname, body);
      let provider = null;
      let path = url.pathname;
      if (url.hostname === 'mangaupdates.fake' || path.startsWith('/mangaupdates/')) {
        provider = 'mangaupdates';
        path = path.replace(/^\/mangaupdates/, '');
      } else if (url.hostname === 'anilist.fake' || path.startsWith('/anilist')) {
        provider = 'anilist';
        path = path.replace(/^\/anilist/, '') || '/';
      }
      if (!provider) return null;
      requests.push({ provider, method, path, body, at: new Date().toISOString() });
      if (requests.length > 20_000) requests.splice(0, requests.length - 20_000);
      return provider === 'mangaupdates' ? mangaUpdatesAnswer(method, path, body) : aniListAnswer(method, body);
    },
  };
}
