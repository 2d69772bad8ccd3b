import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { type Viewer, viewerOf } from '../repositories/visibility';
import type { ProgressActor } from '../services/read-progress.service';
import { DEVICE_ID_HEADER } from '../reading/devices';
import { clientInfo } from './client-info';

/** The signed-in caller as a reader of the catalog: what every catalog read of the request answers for. */
export function requestViewer(c: Context<AppEnv>): Viewer {
  return viewerOf(c.get('principal'));
}

/**
 * The caller as a progress writer: viewer, API key used (device attribution), User-Agent, the device id a
 * client that measures its own reading sends with its writes (src/reading/devices.ts), and the principal a
 * write reading its book in its own statement tests the credential against.
 */
export function progressActor(c: Context<AppEnv>): ProgressActor {
  const principal = c.get('principal');
  return {
    viewer: requestViewer(c),
    apiKey: principal.apiKey,
    userAgent: clientInfo(c).userAgent,
    clientDeviceId: c.req.header(DEVICE_ID_HEADER) ?? null,
    caller: principal,
  };
}
