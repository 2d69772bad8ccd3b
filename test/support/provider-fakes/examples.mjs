/** The vendored example answers the fake providers serve (test/vendor/mangaupdates, test/vendor/anilist). */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export function providerExamples(root) {
  const read = (file) => JSON.parse(readFileSync(path.join(root, 'test', 'vendor', file), 'utf8'));
  return {
    muSeries: read('mangaupdates/series.json'),
    muReleases: read('mangaupdates/releases-search.json'),
    muSearch: read('mangaupdates/series-search.json'),
    alMedia: read('anilist/media.json'),
    alSearch: read('anilist/search.json'),
    alNotFound: read('anilist/not-found.json'),
  };
}

/** Miniflare options of the fake providers as an auxiliary worker named `release-provider-fakes`. */
export function providerFakesWorker(root) {
  const dir = path.join(root, 'test', 'support', 'provider-fakes');
  return {
    name: 'release-provider-fakes',
    compatibilityDate: '2026-11-01',
    modulesRoot: dir,
    modules: [
      { type: 'ESModule', path: path.join(dir, 'worker.mjs') },
      { type: 'ESModule', path: path.join(dir, 'fake-providers.mjs') },
    ],
    bindings: { EXAMPLES: providerExamples(root) },
  };
}
