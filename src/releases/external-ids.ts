/**
 * A series' ids at the providers: given by a person (an id or a page address, `source` naming the provider as
 * Codex-rs accepts it: `mangaupdates`, `api:mangaupdates`, `plugin:mangaupdates`), or read from the web links
 * its metadata carries — a series' links (Komf writes "MangaUpdates" and "AniList" links through the Komga
 * API) and its books' ComicInfo `Web`. A wrong provider or a malformed id is a 400 naming the field.
 */
import { badRequest } from '../lib/errors';
import type { ReleaseProvider } from './provider';
import { PROVIDER_KEYS, PROVIDERS, providerOf } from './providers';

export interface ExternalIdInput {
  source: string;
  externalId: string;
  externalUrl?: string | null;
}

export interface ResolvedExternalId {
  provider: ReleaseProvider;
  externalId: string;
  externalUrl: string;
}

/** `api:mangaupdates` and `plugin:mangaupdates` name the provider `mangaupdates`. */
export function providerOfSource(source: string): ReleaseProvider | null {
  return providerOf(
    source
      .trim()
      .toLowerCase()
      .replace(/^(api|plugin):/, ''),
  );
}

/** An id as the provider's link or in its own form. */
function idOf(provider: ReleaseProvider, raw: string): string | null {
  if (/^https?:\/\//i.test(raw.trim()) && URL.canParse(raw.trim())) return provider.idFromLink(new URL(raw.trim()));
  return provider.normalizeId(raw);
}

export function resolveExternalId(input: ExternalIdInput): ResolvedExternalId {
  const provider = providerOfSource(input.source);
  if (!provider) {
    throw badRequest(`Unknown provider "${input.source}"`, [
      { path: 'source', message: `must be one of ${PROVIDER_KEYS.join(', ')}` },
    ]);
  }
  const externalId = idOf(provider, input.externalId);
  if (!externalId) {
    throw badRequest(`"${input.externalId}" is not a series id at ${provider.displayName}`, [
      { path: 'externalId', message: `must be a series id or page address at ${provider.displayName}` },
    ]);
  }
  return { provider, externalId, externalUrl: input.externalUrl?.trim() || provider.seriesUrl(externalId) };
}

/** The provider ids a list of web links names, first link first (one per provider). */
export function externalIdsFromLinks(urls: readonly string[]): ResolvedExternalId[] {
  const found = new Map<string, ResolvedExternalId>();
  for (const text of urls) {
    if (!URL.canParse(text)) continue;
    const url = new URL(text);
    for (const provider of PROVIDERS) {
      if (found.has(provider.key)) continue;
      const externalId = provider.idFromLink(url);
      if (externalId) found.set(provider.key, { provider, externalId, externalUrl: url.href });
    }
  }
  return [...found.values()];
}
