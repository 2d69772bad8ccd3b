/**
 * Komga's Readium endpoints (issue 22): the book manifest (`/manifest`, `/manifest/epub`, `/manifest/divina`),
 * the position list, EPUB resources and the Readium progression, as Komelia's EPUB readers and Komga's web
 * reader use them (test/support/clients/komelia-epub.ts). Every href is an absolute URL under the server
 * URL the client used (origin + /komga): Komelia refuses any other.
 */
import { badRequest } from '../lib/errors';
import { BookMediaRepository } from '../repositories/book-media.repository';
import { progressActor, requestViewer } from '../http/progress-actor';
import { getCookie } from 'hono/cookie';
import { KOMGA_PREFIX, REMEMBER_ME_COOKIE, SESSION_COOKIE } from './komga-auth';
import {
  jsonBody,
  type KomgaApp,
  type KomgaContext,
  komgaOf,
  need,
  READ_PROGRESS,
  sendMedia,
  WRITE_PROGRESS,
} from './komga-http';
import { R2ProgressionBodySchema } from './komga-readium.dto';
import { KomgaReadiumService, PROFILES, READIUM_TYPES } from './komga-readium.service';

const readiumOf = (c: KomgaContext) => {
  const services = c.get('services');
  return new KomgaReadiumService(
    new BookMediaRepository(services.db),
    services.db,
    c.env.LIBRARY,
    services.readProgress,
  );
};

const serverUrl = (c: KomgaContext) => `${new URL(c.req.url).origin}${KOMGA_PREFIX}`;

const bookOf = (c: KomgaContext) => () => komgaOf(c).getBook(requestViewer(c), c.req.param('id') ?? '');

const pagesOf = (c: KomgaContext) => () =>
  c.get('services').pages.list(requestViewer(c), c.req.param('id') ?? '', new URL(c.req.url).origin);

const json = (c: KomgaContext, body: unknown, type: string) =>
  c.body(JSON.stringify(body), 200, { 'Content-Type': type });

/** The entry path after `/resource/`, as it is in the URL (still percent-encoded: the service decodes it once). */
function resourcePath(c: KomgaContext): string {
  const path = new URL(c.req.url).pathname;
  const marker = '/resource/';
  const at = path.indexOf(marker, path.indexOf('/books/'));
  return at < 0 ? '' : path.slice(at + marker.length);
}

/** Whether the request carries any credential /komga reads (komga-auth.ts): a header or a Komga cookie. */
function carriesCredentials(c: KomgaContext): boolean {
  if (c.req.header('Authorization') !== undefined || c.req.header('X-API-Key') !== undefined) return true;
  const cookies = getCookie(c);
  return cookies[SESSION_COOKIE] !== undefined || cookies[REMEMBER_ME_COOKIE] !== undefined;
}

/**
 * An EPUB's fonts without credentials, as Komga serves them (DECISIONS.md §Reader apps, "Fonts without
 * credentials"): registered ahead of authentication. A request with credentials goes on to the checked
 * route below, so a signed-in reader who may not see the book gets its 404 as for any resource.
 */
export function registerAnonymousFontRoute(app: KomgaApp) {
  app.get('/api/v1/books/:id/resource/*', async (c, next) => {
    if (carriesCredentials(c)) return next();
    return sendMedia(
      c,
      await readiumOf(c).anonymousFont(c.req.param('id'), resourcePath(c), c.req.header('If-Modified-Since')),
    );
  });
}

export function registerReadiumRoutes(app: KomgaApp) {
  app.get('/api/v1/books/:id/manifest', need('PagesRead'), async (c) => {
    const manifest = await readiumOf(c).manifest(
      requestViewer(c),
      c.req.param('id'),
      bookOf(c),
      pagesOf(c),
      serverUrl(c),
    );
    const type = manifest.metadata.conformsTo === PROFILES.epub ? READIUM_TYPES.webpub : READIUM_TYPES.divina;
    return json(c, manifest, type);
  });
  app.get('/api/v1/books/:id/manifest/epub', need('PagesRead'), async (c) =>
    json(
      c,
      await readiumOf(c).epubManifest(requestViewer(c), c.req.param('id'), bookOf(c), serverUrl(c)),
      READIUM_TYPES.webpub,
    ),
  );
  app.get('/api/v1/books/:id/manifest/divina', need('PagesRead'), async (c) => {
    const viewer = requestViewer(c);
    const dto = await komgaOf(c).getBook(viewer, c.req.param('id'));
    if (dto.media.mediaProfile === 'EPUB' && !dto.media.epubDivinaCompatible) {
      throw badRequest('Book media type is not compatible with DiViNa: its pages are not images');
    }
    return json(c, readiumOf(c).divinaManifest(dto, await pagesOf(c)(), serverUrl(c)), READIUM_TYPES.divina);
  });
  app.get('/api/v1/books/:id/positions', need('PagesRead'), async (c) =>
    json(
      c,
      await readiumOf(c).positions(requestViewer(c), c.req.param('id'), pagesOf(c), serverUrl(c)),
      READIUM_TYPES.positionList,
    ),
  );
  app.get('/api/v1/books/:id/resource/*', need('PagesRead'), async (c) =>
    sendMedia(
      c,
      await readiumOf(c).resource(
        requestViewer(c),
        c.req.param('id'),
        resourcePath(c),
        c.req.header('If-Modified-Since'),
      ),
    ),
  );
  app.get('/api/v1/books/:id/progression', need(READ_PROGRESS), async (c) => {
    const progression = await readiumOf(c).getProgression(
      requestViewer(c),
      c.req.param('id'),
      pagesOf(c),
      serverUrl(c),
    );
    return progression ? json(c, progression, READIUM_TYPES.progression) : c.body(null, 204);
  });
  app.put('/api/v1/books/:id/progression', need(WRITE_PROGRESS), async (c) => {
    const body = await jsonBody(c, R2ProgressionBodySchema);
    await readiumOf(c).putProgression(progressActor(c), c.req.param('id'), body);
    return c.body(null, 204);
  });
}
