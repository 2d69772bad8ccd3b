/**
 * What every built-in release provider is (issue 32: providers are clients in the worker, not plugins — a
 * worker cannot spawn processes): how its ids and web links look, how a series is found by name, and what one
 * poll of a series learns. A third provider is one file implementing this, listed in providers/index.ts.
 */
import type { Span } from './numbers';
import type { ProviderHttp } from './provider-http';

/** One release as the provider reports it. */
export interface ProviderRelease {
  /** Stable across polls (the ledger's dedup key with the source). */
  externalReleaseId: string;
  chapters: Span | null;
  volumes: Span | null;
  /** ISO 639-1. */
  language: string;
  group: string | null;
  /** Where a person reads about it (the provider's page). */
  payloadUrl: string;
  releasedAt: string | null;
  /** The provider's own words for it, kept for display. */
  title: string | null;
}

/** What one poll of one series learns. */
export interface ProviderSnapshot {
  title: string;
  /** The provider's chapter and volume counts (null when it does not know them). */
  chapterCount: number | null;
  volumeCount: number | null;
  /** `ongoing`, `complete`, `hiatus`, `cancelled`, or null. */
  status: string | null;
  /** Recent releases, newest first; empty for providers that only count. */
  releases: ProviderRelease[];
}

export interface ProviderContext {
  http: ProviderHttp;
  /** Where the provider's API is (its real address unless configured otherwise). */
  baseUrl: string;
}

export interface ReleaseProvider {
  /** `mangaupdates`: the `source` of external ids, the `pluginId` of the source. */
  readonly key: string;
  readonly displayName: string;
  /** `api-feed` announces releases; `metadata-feed` only counts. */
  readonly kind: 'api-feed' | 'metadata-feed';
  /** Where its API is, unless `LONGBOX_RELEASES__<KEY>_URL` says otherwise (provider-settings.ts). */
  readonly defaultBaseUrl: string;
  /** Least time between two requests, per its published rate limit (`…_MIN_INTERVAL_MS` overrides it). */
  readonly defaultMinIntervalMs: number;
  /** Requests one poll makes (the dispatcher queues no more polls a minute than the pace allows). */
  readonly requestsPerPoll: number;
  /** The canonical form of an id as a person or a link gives it, or null when it is not one of this provider's. */
  normalizeId(raw: string): string | null;
  /** The id a web link of this provider names (a series page), or null. */
  idFromLink(url: URL): string | null;
  /** Host names of its web links (`mangaupdates.com`), for finding them among many. */
  readonly linkHosts: readonly string[];
  /** The series' page at the provider. */
  seriesUrl(id: string): string;
  /** The provider's id of a series known by one of these names (exact match after normalizing), or null. */
  find(context: ProviderContext, names: readonly string[]): Promise<string | null>;
  poll(context: ProviderContext, id: string): Promise<ProviderSnapshot>;
}
