import type { Context } from 'hono';
import type { AppEnv } from '../env';
import type { ProgressActor } from '../services/read-progress.service';
import { clientInfo } from './client-info';

/** The caller as a progress writer: user, API key used (device attribution) and User-Agent. */
export function progressActor(c: Context<AppEnv>): ProgressActor {
  const principal = c.get('principal');
  return { userId: principal.user.id, apiKey: principal.apiKey, userAgent: clientInfo(c).userAgent };
}
