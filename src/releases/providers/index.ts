/**
 * The built-in release providers, by key. Each is one file implementing `ReleaseProvider`; its source row
 * (release_sources) is inserted by the migration that introduces it.
 */
import type { ReleaseProvider } from '../provider';
import { aniList } from './anilist';
import { mangaUpdates } from './mangaupdates';

export const PROVIDERS: readonly ReleaseProvider[] = [mangaUpdates, aniList];

export const PROVIDER_KEYS = PROVIDERS.map((provider) => provider.key);

export function providerOf(key: string): ReleaseProvider | null {
  return PROVIDERS.find((provider) => provider.key === key) ?? null;
}
