/**
 * KOReader sync at /koreader (DECISIONS.md §Reader apps; issue 9 point 4), as KOReader's kosync plugin
 * calls it: the user types `https://<host>/koreader` as the custom sync server and an API key as the
 * username. Status codes and bodies are the reference server's; every response is
 * `Content-Type: application/json` exactly (KOReader's parser rejects a charset or a vendor type).
 */
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { describeRequirement, PROGRESS_READ, PROGRESS_WRITE, type Requirement, satisfies } from '../auth/permissions';
import type { AppEnv } from '../env';
import { AppError } from '../lib/errors';
import { asCaller, type Speculation } from '../middleware/caller';
import { handleError } from '../middleware/error-handler';
import { progressActor, requestViewer } from '../http/progress-actor';
import { clientInfo } from '../http/client-info';
import { KosyncError, kosyncErrors } from './kosync-errors';
import { isValidDocument } from './kosync.service';

export const KOREADER_BASE = '/koreader';
const MAX_BODY_BYTES = 64 * 1024;

const json = (c: Context<AppEnv>, body: unknown, status: 200 | 201 | 400 | 401 | 403 | 412 = 200) =>
  c.body(JSON.stringify(body), status, { 'Content-Type': 'application/json' });

/** gin's check, made before routing: `Accept: application/vnd.koreader.v1+json`. */
const acceptsV1 = createMiddleware<AppEnv>(async (c, next) => {
  const accept = c.req.header('Accept');
  if (!accept) throw kosyncErrors.acceptMissing();
  const version = accept.match(/^application\/vnd\.koreader\.v(\d+)(.*)\+json$/)?.[1];
  if (version === undefined) throw kosyncErrors.acceptFormat();
  if (version !== '1') throw kosyncErrors.acceptVersion();
  await next();
});

/**
 * The API key KOReader sends as its username (`x-auth-user`); the password header is not checked (as Komga). A
 * key imported from Komga works here too, as it did on Komga's own KOReader sync (docs/DECISIONS.md §Imported
 * credentials). Like the API's guard, the handler may start before the key's check returns (middleware/caller.ts).
 */
function signedIn(need: Requirement, speculation: Speculation = 'reads') {
  return createMiddleware<AppEnv>(async (c, next) => {
    const key = c.req.header('x-auth-user');
    if (!key) throw kosyncErrors.unauthorized();
    try {
      return await asCaller(c, next, {
        check: () => c.get('services').auth.check({ apiKey: key }, clientInfo(c), { komgaKeys: true }),
        admit: (principal) => {
          if (!satisfies(principal.permissions, need)) throw kosyncErrors.forbidden(describeRequirement(need));
        },
        speculation,
      });
    } catch (error) {
      if (error instanceof AppError && error.kind === 'Unauthorized') throw kosyncErrors.unauthorized();
      throw error;
    }
  });
}

const kosync = (c: Context<AppEnv>) => c.get('services').kosync;

export const koreaderRouter = new Hono<AppEnv>();

koreaderRouter.onError((error, c) => {
  if (error instanceof KosyncError) return json(c, error.toBody(), error.status);
  if (error instanceof AppError && error.status < 500) {
    return json(c, { code: 2003, message: `Invalid request: ${error.message}` }, 403);
  }
  return handleError(error, c);
});

koreaderRouter.get('/healthcheck', (c) => json(c, { state: 'OK' }));
koreaderRouter.use('/users/*', acceptsV1);
koreaderRouter.use('/syncs/*', acceptsV1);

// Accounts are Longbox's: KOReader's "Register" cannot create one.
koreaderRouter.post('/users/create', () => {
  throw kosyncErrors.registrationDisabled();
});

koreaderRouter.get('/users/auth', signedIn(PROGRESS_READ), (c) => json(c, { authorized: 'OK' }));

koreaderRouter.put(
  '/syncs/progress',
  bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw kosyncErrors.invalid(`the body is larger than ${MAX_BODY_BYTES} bytes`);
    },
  }),
  // The push tests the key in its own statement, so it may be written before the check returns.
  signedIn(PROGRESS_WRITE, 'guarded-writes'),
  async (c) => {
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      throw kosyncErrors.badJson();
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw kosyncErrors.notAHash();
    return json(c, await kosync(c).push(progressActor(c), body as Record<string, unknown>));
  },
);

koreaderRouter.get('/syncs/progress/:document', signedIn(PROGRESS_READ), async (c) => {
  const document = c.req.param('document');
  if (!isValidDocument(document)) throw kosyncErrors.documentMissing();
  return json(c, await kosync(c).pull(requestViewer(c), document));
});
