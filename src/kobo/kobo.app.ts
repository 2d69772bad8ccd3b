/**
 * Kobo e-readers at `/kobo/<API key>/` (DECISIONS.md §Kobo e-readers; README "Kobo e-readers"): the device's
 * `api_endpoint` points here, and every call it makes to Kobo's store comes here instead. The key in the path
 * is an ordinary Longbox API key, and names the device (API.md §2 Device attribution): revoking it stops the
 * device at its next call.
 *
 * Answered here: the resources document (with Longbox's image URLs), device sign-in, library sync, a book's
 * metadata, its reading state (read and written), the download (an EPUB as it is; a comic as a fixed-layout
 * EPUB), and covers at the sizes the device asks for. Everything else the device calls gets `{}`, or is
 * forwarded to Kobo's store when `LONGBOX_KOBO__STORE_PROXY` is on. Kobo's annotation service is not among
 * the calls: the resources leave it at Kobo, so nothing here ever answers an annotation set.
 */
import { type Context, type ExecutionContext, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import { describeRequirement, PROGRESS_READ, PROGRESS_WRITE, type Requirement, satisfies } from '../auth/permissions';
import type { AppEnv } from '../env';
import { clientInfo } from '../http/client-info';
import { progressActor, requestViewer } from '../http/progress-actor';
import { sendMedia } from '../http/send-media';
import { AppError, badRequest, forbidden, issuesToDetails, notFound } from '../lib/errors';
import { ImageRenderError, toAppError } from '../media/image-renderer';
import { asCaller, type Speculation, whenChecked } from '../middleware/caller';
import { handleError } from '../middleware/error-handler';
import { type DatabaseFactory, requestContext } from '../middleware/request-context';
import type { KoboDevice } from '../repositories/kobo-sync.repository';
import { type KoboSyncItem, ReadingStateUpdateSchema } from './kobo.dto';
import { KOBO_RESOURCES } from './kobo-resources';
import { forwardToStore, KOBO_IMAGE_TEMPLATE } from './kobo-store';
import { bookOfCoverImage, type KoboLinks } from './kobo-sync.service';
import { decodeSyncToken, encodeSyncToken } from './sync-token';

export const KOBO_PREFIX = '/kobo';
/** What syncing, listing and downloading books takes (GET /books and GET /books/{id}/file take it too). */
const BOOKS_READ: Requirement = 'BooksRead';
const MAX_BODY_BYTES = 256 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Kobo asks for covers from thumbnail size to its screen; larger is refused rather than rendered. */
const MAX_COVER_SIDE = 4000;

type KoboContext = Context<AppEnv>;

/** One answer for every refused key, whatever the reason: the device's URL is all it has, and it learns nothing. */
const unknownKey = () =>
  new AppError('Unauthorized', 'This Kobo sync URL is not valid: its API key is unknown, revoked or expired');

const keyOf = (c: KoboContext) => c.req.param('apiKey') as string;

/** The part of the URL after `/kobo/<key>`, as Kobo's store would see it. */
const storePath = (c: KoboContext) => {
  const url = new URL(c.req.url);
  const prefix = `${KOBO_PREFIX}/${encodeURIComponent(keyOf(c))}`;
  return `${url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : url.pathname}${url.search}`;
};

const storeProxy = (c: KoboContext) => c.get('config').LONGBOX_KOBO__STORE_PROXY;

/**
 * The device's key: a Longbox API key (never a password or a session), checked on every call, and the route's
 * permission (the API's own for the same data). Like the API's guard, a key this isolate checked before lets the
 * handler start as the principal it found then while the key is checked again (middleware/caller.ts;
 * docs/ARCHITECTURE.md, "The credential check beside the request"): GET and HEAD, and a write whose statements
 * test the key themselves (`guarded-writes`). Nothing of such an answer leaves before the check says yes.
 */
function koboSignedIn(need: Requirement | null, speculation: Speculation = 'reads') {
  return createMiddleware<AppEnv>(async function koboSignedIn(c, next) {
    try {
      return await asCaller(c, next, {
        check: () => c.get('services').auth.check({ apiKey: keyOf(c) }, clientInfo(c)),
        admit: (principal) => {
          if (!principal.apiKey) throw unknownKey();
          if (need && !satisfies(principal.permissions, need)) {
            throw forbidden(`This Kobo's API key lacks ${describeRequirement(need)}`);
          }
        },
        speculation,
      });
    } catch (error) {
      if (error instanceof AppError && error.kind === 'Unauthorized') throw unknownKey();
      throw error;
    }
  });
}

/** The device: the key's owner as the key lets them see the catalog, and the key. */
function deviceOf(c: KoboContext, acknowledged = 0): KoboDevice {
  const apiKey = c.get('principal').apiKey as { id: string };
  return { viewer: requestViewer(c), apiKeyId: apiKey.id, acknowledged };
}

function linksOf(c: KoboContext): KoboLinks {
  const base = `${new URL(c.req.url).origin}${KOBO_PREFIX}/${encodeURIComponent(keyOf(c))}`;
  return { download: (bookId) => `${base}/v1/books/${bookId}/file/epub` };
}

/** A JSON answer the device reads (Kobo's store answers `application/json; charset=utf-8`). */
const koboJson = (c: KoboContext, body: unknown, headers: Record<string, string> = {}) =>
  c.body(JSON.stringify(body), 200, { 'Content-Type': 'application/json; charset=utf-8', ...headers });

/**
 * Kobo's store, asked on the device's behalf only once its key is checked (a run beside the check waits for
 * it): nothing goes out for a refused key.
 */
async function askStore(c: KoboContext, body: ArrayBuffer | null, syncToken?: string | null) {
  await whenChecked(c);
  return forwardToStore(c.req.raw, storePath(c), body, syncToken);
}

/** The store's answer as the device gets it. */
async function fromStore(c: KoboContext, body: ArrayBuffer | null) {
  const answer = await askStore(c, body);
  return c.body(answer.body, answer.status as 200, {
    'Content-Type': 'application/json; charset=utf-8',
    ...answer.headers,
  });
}

const requestBody = async (c: KoboContext) =>
  c.req.method === 'GET' || c.req.method === 'HEAD' ? null : await c.req.arrayBuffer();

export function createKoboApp(databaseFactory: DatabaseFactory) {
  const app = new Hono<AppEnv>({ strict: false }).basePath(`${KOBO_PREFIX}/:apiKey`);
  app.onError((error, c) =>
    handleError(error instanceof ImageRenderError ? toAppError(error) : error, c as Context<AppEnv>),
  );
  app.use(
    '*',
    requestContext(databaseFactory, (request, env, ctx) => app.fetch(request, env, ctx)),
  );
  app.use(
    '*',
    bodyLimit({
      maxSize: MAX_BODY_BYTES,
      onError: () => {
        throw new AppError('PayloadTooLarge', `Request body exceeds ${MAX_BODY_BYTES} bytes`);
      },
    }),
  );
  app.get('/v1/initialization', koboSignedIn(BOOKS_READ), async (c) => {
    const base = `${new URL(c.req.url).origin}${KOBO_PREFIX}/${encodeURIComponent(keyOf(c))}/v1/books/{ImageId}/thumbnail/{Width}/{Height}`;
    let resources: Record<string, unknown> = { ...KOBO_RESOURCES };
    if (storeProxy(c)) {
      await whenChecked(c);
      try {
        const answer = await askStore(c, null);
        const parsed = JSON.parse(new TextDecoder().decode(answer.body)) as { Resources?: Record<string, unknown> };
        if (answer.status === 200 && parsed.Resources) resources = parsed.Resources;
      } catch (error) {
        c.get('logger').warn('kobo store unreachable, answering its resources from Longbox', { error: String(error) });
      }
    }
    return koboJson(
      c,
      {
        Resources: {
          ...resources,
          image_host: new URL(c.req.url).origin,
          image_url_template: `${base}/false/image.jpg`,
          image_url_quality_template: `${base}/{Quality}/{IsGreyscale}/image.jpg`,
        },
      },
      // An empty JSON object, base64: what Kobo's store sends (Komga, calibre-web).
      { 'x-kobo-apitoken': 'e30=' },
    );
  });

  // Sign-in of the device: Longbox signs it in by the key in the URL, so these tokens only keep it content.
  const deviceAuth = async (c: KoboContext) => {
    const body = await requestBody(c);
    if (storeProxy(c)) {
      await whenChecked(c);
      try {
        return await fromStore(c, body);
      } catch (error) {
        c.get('logger').warn('kobo store unreachable, signing the device in locally', { error: String(error) });
      }
    }
    let userKey = '';
    try {
      const parsed = JSON.parse(new TextDecoder().decode(body ?? new ArrayBuffer(0))) as { UserKey?: unknown };
      if (typeof parsed.UserKey === 'string') userKey = parsed.UserKey;
    } catch {
      // A body the device did not send as JSON still gets its tokens.
    }
    const token = () => crypto.randomUUID().replace(/-/g, '');
    return koboJson(c, {
      AccessToken: token(),
      RefreshToken: token(),
      TokenType: 'Bearer',
      TrackingId: crypto.randomUUID(),
      UserKey: userKey,
    });
  };
  // Signing the device in writes nothing: it may run beside the key's check (a forward to the store waits for it).
  app.post('/v1/auth/device', koboSignedIn(null, 'read-only'), deviceAuth);
  // Firmware 4.38.23552 and later refresh the token (janeczku/calibre-web#3492).
  app.post('/v1/auth/refresh', koboSignedIn(null, 'read-only'), deviceAuth);

  // The page's record tests the key in its own statements: the sync may run before the key's check returns.
  app.get('/v1/library/sync', koboSignedIn(BOOKS_READ, 'guarded-writes'), async (c) => {
    const services = c.get('services');
    const apiKeyId = (c.get('principal').apiKey as { id: string }).id;
    const secret = await services.secret();
    const token = await decodeSyncToken(secret, apiKeyId, c.req.header('x-kobo-synctoken'));
    const page = await services.kobo.syncPage(deviceOf(c, token.generation), linksOf(c), c.get('principal'));
    let items: KoboSyncItem[] = page.items;
    let more = page.more;
    let storeToken = token.storeToken;
    if (!more && storeProxy(c)) {
      // The store's own sync comes after every Longbox item, as Komga merges them.
      await whenChecked(c);
      try {
        const answer = await askStore(c, null, storeToken);
        const storeItems = JSON.parse(new TextDecoder().decode(answer.body)) as unknown;
        if (answer.status === 200 && Array.isArray(storeItems)) {
          items = [...items, ...(storeItems as KoboSyncItem[])];
          more = answer.headers['x-kobo-sync']?.toLowerCase() === 'continue';
          storeToken = answer.headers['x-kobo-synctoken'] ?? storeToken;
        }
      } catch (error) {
        c.get('logger').warn('kobo store sync failed; Longbox items sent alone', { error: String(error) });
      }
    }
    const headers: Record<string, string> = {
      'x-kobo-synctoken': await encodeSyncToken(secret, apiKeyId, { generation: page.generation, storeToken }),
    };
    if (more) headers['x-kobo-sync'] = 'continue';
    return koboJson(c, items, headers);
  });

  /** Ids that are not Longbox books: the store's, when forwarding is on; else unknown. */
  const foreignBook = async (c: KoboContext, id: string) => {
    if (storeProxy(c) && !UUID.test(id)) return fromStore(c, await requestBody(c));
    throw notFound(`Book ${id}`);
  };

  app.get('/v1/library/:bookId/metadata', koboSignedIn(BOOKS_READ), async (c) => {
    const id = c.req.param('bookId');
    if (!UUID.test(id)) return foreignBook(c, id);
    return koboJson(c, [await c.get('services').kobo.metadata(deviceOf(c), id.toLowerCase(), linksOf(c))]);
  });

  app.get('/v1/library/:bookId/state', koboSignedIn(PROGRESS_READ), async (c) => {
    const id = c.req.param('bookId');
    if (!UUID.test(id)) return foreignBook(c, id);
    return koboJson(c, [await c.get('services').kobo.readingState(deviceOf(c), id.toLowerCase())]);
  });

  // The write tests the key in its own statements, so it may be made before the key's check returns.
  app.put('/v1/library/:bookId/state', koboSignedIn(PROGRESS_WRITE, 'guarded-writes'), async (c) => {
    const id = c.req.param('bookId');
    if (!UUID.test(id)) return foreignBook(c, id);
    let json: unknown;
    try {
      json = JSON.parse(await c.req.text());
    } catch {
      throw badRequest('The reading state is not JSON');
    }
    const parsed = ReadingStateUpdateSchema.safeParse(json);
    if (!parsed.success) {
      throw badRequest('The reading state is not one Longbox can read', issuesToDetails(parsed.error.issues));
    }
    const actor = { ...progressActor(c), apiKey: c.get('principal').apiKey as { id: string; name: string } };
    return koboJson(
      c,
      await c.get('services').kobo.updateReadingState(actor, deviceOf(c), id.toLowerCase(), parsed.data),
    );
  });

  const download = async (c: KoboContext) => {
    const id = c.req.param('bookId') as string;
    if (!UUID.test(id)) throw notFound(`Book ${id}`);
    return sendMedia(
      c,
      await c.get('services').kobo.download(deviceOf(c), id.toLowerCase(), {
        method: c.req.method,
        origin: new URL(c.req.url).origin,
        range: c.req.header('Range'),
        ifRange: c.req.header('If-Range'),
        ifNoneMatch: c.req.header('If-None-Match'),
      }),
    );
  };
  app.get('/v1/books/:bookId/file/epub', koboSignedIn(BOOKS_READ), download);
  app.on('HEAD', '/v1/books/:bookId/file/epub', koboSignedIn(BOOKS_READ), download);

  const cover = async (c: KoboContext) => {
    const imageId = c.req.param('imageId') as string;
    const [width, height] = [Number(c.req.param('width')), Number(c.req.param('height'))];
    const bookId = bookOfCoverImage(imageId);
    if (!bookId) {
      if (storeProxy(c)) {
        const to = KOBO_IMAGE_TEMPLATE.replace('{ImageId}', encodeURIComponent(imageId))
          .replace('{Width}', String(width))
          .replace('{Height}', String(height));
        return c.redirect(to, 307);
      }
      throw notFound(`Cover ${imageId}`);
    }
    const valid = (n: number) => Number.isInteger(n) && n >= 1 && n <= MAX_COVER_SIDE;
    if (!valid(width) || !valid(height)) {
      throw badRequest(`A cover's width and height are whole numbers from 1 to ${MAX_COVER_SIDE}`);
    }
    return sendMedia(
      c,
      await c
        .get('services')
        .thumbnails.forBookWithin(
          requestViewer(c),
          bookId,
          { width, height },
          { ifNoneMatch: c.req.header('If-None-Match'), origin: new URL(c.req.url).origin },
        ),
    );
  };
  app.get('/v1/books/:imageId/thumbnail/:width/:height/:greyscale/image.jpg', koboSignedIn(BOOKS_READ), cover);
  app.get('/v1/books/:imageId/thumbnail/:width/:height/:quality/:greyscale/image.jpg', koboSignedIn(BOOKS_READ), cover);

  // Everything else the device calls (its profile, the store, analytics, tags made on the device…).
  app.all('*', koboSignedIn(null), async (c) => {
    if (storeProxy(c)) return fromStore(c, await requestBody(c));
    return koboJson(c, {});
  });
  return app;
}

/** Hands every /kobo request to the Kobo app, ahead of the API's middleware, as /komga is. */
export function mountKoboApi(app: Hono<AppEnv>, databaseFactory: DatabaseFactory): void {
  const kobo = createKoboApp(databaseFactory);
  app.all(`${KOBO_PREFIX}/*`, (c) => kobo.fetch(c.req.raw, c.env, executionContextOf(c)));
}

/** In-process callers may have no execution context; the Kobo app then runs without one too. */
function executionContextOf(c: { executionCtx: unknown }): ExecutionContext | undefined {
  try {
    return c.executionCtx as ExecutionContext;
  } catch {
    return undefined;
  }
}
