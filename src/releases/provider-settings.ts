/**
 * Each provider's address and pace for this deployment: `LONGBOX_RELEASES__<KEY>_URL` (a test's fake provider,
 * a proxy) and `LONGBOX_RELEASES__<KEY>_MIN_INTERVAL_MS`, else the provider's own defaults — the real service
 * at its published rate limit. Read per provider, so a third provider needs no configuration code.
 */
import { z } from 'zod';
import type { ReleaseProvider } from './provider';

export interface ProviderSettings {
  baseUrl: string;
  minIntervalMs: number;
}

const UrlSchema = z.string().url();
const IntervalSchema = z.coerce.number().int().min(0).max(60_000);

export function providerSettings(env: object, provider: ReleaseProvider): ProviderSettings {
  const prefix = `LONGBOX_RELEASES__${provider.key.toUpperCase()}`;
  const vars = env as Record<string, unknown>;
  const url = vars[`${prefix}_URL`];
  const interval = vars[`${prefix}_MIN_INTERVAL_MS`];
  const parsedUrl = url === undefined || url === '' ? provider.defaultBaseUrl : UrlSchema.parse(url);
  return {
    baseUrl: parsedUrl.replace(/\/+$/, ''),
    minIntervalMs:
      interval === undefined || interval === '' ? provider.defaultMinIntervalMs : IntervalSchema.parse(interval),
  };
}

/** How many polls of the provider fit in a minute at its pace (no pace: no limit). */
export function pollsPerMinute(settings: ProviderSettings, provider: ReleaseProvider): number {
  if (settings.minIntervalMs === 0) return Number.POSITIVE_INFINITY;
  return Math.max(1, Math.floor(60_000 / (settings.minIntervalMs * provider.requestsPerPoll)));
}
