/** Hands a media service's result to Hono with `c.body`, which keeps the headers set earlier (X-Request-Id). */
import type { Context } from 'hono';
import type { AppEnv } from '../env';
import type { MediaResponse } from '../pages/media-response';

/** What a media request brings besides its route: its validator, and the origin edge-cache keys live under. */
export const mediaRequestOf = (c: Pick<Context, 'req'>) => ({
  ifNoneMatch: c.req.header('If-None-Match'),
  origin: new URL(c.req.url).origin,
});

export function sendMedia(c: Context<AppEnv>, result: MediaResponse) {
  if (result.body === null) return c.body(null, result.status, result.headers);
  if (result.status === 304) throw new Error('a 304 response carries no body');
  return c.body(result.body, result.status, result.headers);
}
