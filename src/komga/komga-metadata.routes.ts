/**
 * Komga's metadata and thumbnail writes, exactly the calls Komf makes (docs/clients.md §Issue 18;
 * test/support/clients/komf-metadata.ts): the series and book metadata PATCHes (204), the bulk book PATCH,
 * and the series/book thumbnail list, upload, select and delete. A series lists its uploaded covers only
 * (Komga lists no generated series thumbnail); a book lists its generated cover too (type GENERATED, the
 * book's id), so "select the generated one" resets it. `GET …/thumbnails` is 200 `[]` when there are none.
 */
import { parseMultipart } from '../http/multipart';
import { requestViewer } from '../http/progress-actor';
import { mediaRequestOf } from '../http/send-media';
import { badRequest } from '../lib/errors';
import type { CoverOwner, CoverRow } from '../repositories/uploaded-covers.repository';
import { MAX_COVER_BYTES } from '../services/covers.service';
import type { BookEdit } from '../services/metadata.service';
import { jsonBody, type KomgaApp, type KomgaContext, need, sendMedia } from './komga-http';
import { applySeriesSharingUpdate } from './komga-users.routes';
import {
  bookEditOf,
  KomgaBookMetadataUpdateSchema,
  KomgaBulkBookMetadataUpdateSchema,
  KomgaSeriesMetadataUpdateSchema,
  seriesEditOf,
} from './komga-metadata';

type Kind = CoverOwner['kind'];
const OWNER_KEY = { series: 'seriesId', book: 'bookId' } as const;
const WRITE = { series: 'SeriesWrite', book: 'BooksWrite' } as const;
const READ = { series: 'SeriesRead', book: 'BooksRead' } as const;

/** Komga `ThumbnailSeriesDto` / `ThumbnailBookDto`. */
function toKomgaThumbnail(kind: Kind, ownerId: string, cover: CoverRow) {
  return {
    id: cover.id,
    [OWNER_KEY[kind]]: ownerId,
    type: 'USER_UPLOADED',
    selected: cover.selected,
    mediaType: cover.mediaType,
    fileSize: cover.fileSize,
    width: cover.width,
    height: cover.height,
  };
}

/** The multipart upload: part `file` (any filename, any or no Content-Type: the bytes are sniffed), `selected`. */
async function uploadedFile(c: KomgaContext): Promise<{ bytes: Uint8Array; selected: boolean }> {
  const parts = parseMultipart(c.req.header('Content-Type'), new Uint8Array(await c.req.arrayBuffer()));
  const file = parts.find((p) => p.name === 'file');
  if (!file) throw badRequest('The multipart part file is missing');
  const selected = parts.find((p) => p.name === 'selected');
  return { bytes: file.bytes, selected: selected ? new TextDecoder().decode(selected.bytes).trim() !== 'false' : true };
}

export function registerMetadataRoutes(app: KomgaApp) {
  app.patch('/api/v1/series/:id/metadata', need('SeriesWrite'), async (c) => {
    const dto = await jsonBody(c, KomgaSeriesMetadataUpdateSchema);
    // The age rating and sharing labels first, which need UsersWrite (a 403 there changes nothing); then
    // Komga's other fields. A hidden or unknown series is a 404 from whichever of the two reads it first.
    // A change of rating or labels alone is announced too (series_updated), as /api/v1's PATCH does.
    const rated = await applySeriesSharingUpdate(c, c.req.param('id'), dto);
    await c.get('services').metadata.applySeriesEdit(requestViewer(c), c.req.param('id'), seriesEditOf(dto), rated);
    return c.body(null, 204);
  });
  app.patch('/api/v1/books/metadata', need('BooksWrite'), async (c) => {
    const dtos = await jsonBody(c, KomgaBulkBookMetadataUpdateSchema);
    // As Komga: the books the caller sees are edited, an unknown (or hidden) id is skipped, and the answer is 204.
    const edits = new Map(Object.entries(dtos).map(([id, dto]) => [id, bookEditOf(dto)]));
    await c.get('services').metadata.bulkBooks(requestViewer(c), [...edits.keys()], (id) => edits.get(id) as BookEdit);
    return c.body(null, 204);
  });
  app.patch('/api/v1/books/:id/metadata', need('BooksWrite'), async (c) => {
    const dto = await jsonBody(c, KomgaBookMetadataUpdateSchema);
    await c.get('services').metadata.editBook(requestViewer(c), c.req.param('id'), bookEditOf(dto));
    return c.body(null, 204);
  });

  for (const kind of ['series', 'book'] as const) {
    const base = `/api/v1/${kind === 'series' ? 'series' : 'books'}/:id/thumbnails`;
    const owner = (c: KomgaContext): CoverOwner => ({ kind, id: c.req.param('id') as string });
    app.get(base, need(READ[kind]), async (c) => {
      const covers = c.get('services').covers;
      const list = (await covers.list(requestViewer(c), owner(c))).map((cover) =>
        toKomgaThumbnail(kind, owner(c).id, cover),
      );
      if (kind === 'book') list.unshift(generatedBookThumbnail(owner(c).id, !list.some((t) => t.selected)));
      return c.json(list);
    });
    app.get(`${base}/:thumbnailId`, need(READ[kind]), async (c) => {
      const { id, thumbnailId } = c.req.param() as { id: string; thumbnailId: string };
      const services = c.get('services');
      if (kind === 'book' && thumbnailId === id)
        return sendMedia(c, await services.thumbnails.forBook(requestViewer(c), id, mediaRequestOf(c)));
      return sendMedia(c, await services.covers.image(requestViewer(c), owner(c), thumbnailId));
    });
    app.post(base, need(WRITE[kind]), async (c) => {
      const { bytes, selected } = await uploadedFile(c);
      const cover = await c.get('services').covers.upload(requestViewer(c), owner(c), bytes, selected);
      return c.json(toKomgaThumbnail(kind, owner(c).id, cover));
    });
    app.put(`${base}/:thumbnailId/selected`, need(WRITE[kind]), async (c) => {
      const { id, thumbnailId } = c.req.param() as { id: string; thumbnailId: string };
      const covers = c.get('services').covers;
      if (kind === 'book' && thumbnailId === id) await covers.reset(requestViewer(c), owner(c));
      else await covers.select(requestViewer(c), owner(c), thumbnailId);
      return c.body(null, 202);
    });
    app.delete(`${base}/:thumbnailId`, need(WRITE[kind]), async (c) => {
      const { id, thumbnailId } = c.req.param() as { id: string; thumbnailId: string };
      // Komga refuses to delete a generated thumbnail.
      if (kind === 'book' && thumbnailId === id) throw badRequest('A generated thumbnail cannot be deleted');
      await c.get('services').covers.remove(requestViewer(c), owner(c), thumbnailId);
      return c.body(null, 202);
    });
  }
}

/** A book's generated cover as Komga lists it (the thumbnail made from the book's cover page). */
function generatedBookThumbnail(bookId: string, selected: boolean) {
  return {
    id: bookId,
    bookId,
    type: 'GENERATED',
    selected,
    mediaType: 'image/jpeg',
    fileSize: 0,
    width: 0,
    height: 0,
  };
}

/** Thumbnail uploads may be up to the cover limit; every other Komga body stays small. */
export const THUMBNAIL_UPLOAD_LIMIT = MAX_COVER_BYTES + 64 * 1024;
export const isThumbnailUpload = (method: string, path: string) => method === 'POST' && /\/thumbnails\/?$/.test(path);
