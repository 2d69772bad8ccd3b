import type { LegacyWorkerOptions } from 'miniflare';

/** The vendored example answers (test/vendor/mangaupdates, test/vendor/anilist), parsed. */
export function providerExamples(root: string): Record<string, unknown>;

/** Miniflare options of the fake providers as an auxiliary worker named `release-provider-fakes`. */
export function providerFakesWorker(root: string): LegacyWorkerOptions;
