/**
 * The fake providers as a miniflare auxiliary worker (vitest.config.ts): the workers tests' worker sends its
 * outbound requests here (`outboundService`), so Longbox's HTTP client reaches the fake MangaUpdates and
 * AniList at their configured `*.fake` base URLs; every other outbound request is passed on unchanged.
 */
import { createFakeProviders } from './fake-providers.mjs';

let fakes;

export default {
  async fetch(request, env) {
    fakes ??= createFakeProviders(env.EXAMPLES);
    return (await fakes.handle(request.clone())) ?? fetch(request);
  },
};
