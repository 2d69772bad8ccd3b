/**
 * Uploaded covers of series and books (issue 18 point 3; Codex-rs's cover routes, Komga's thumbnails):
 * upload (JPEG, PNG or WebP told from the bytes, at most 20 MB and 50 megapixels, decoded and thumbnailed
 * by the renderer), list, select, delete, and reset to the generated cover (a book's cover page, a
 * series' first book). The image and its thumbnail live in the CACHE bucket under `covers/<id>/`, never
 * among the user's book files; a new cover has a new id, so no key is ever written twice. Every change of
 * what shows announces `cover_updated`.
 */
import type { Database } from '../db/client';
import type { EventPublisher } from '../events/events';
import { AppError, badRequest, notFound } from '../lib/errors';
import { ImageRenderError, type RendererClient } from '../media/image-renderer';
import { sniffCoverImage } from '../media/image-sniff';
import type { MediaResponse } from '../pages/media-response';
import { THUMBNAIL_CACHE_CONTROL } from '../pages/media-response';
import type { Statement } from '../repositories/catalog-writer.repository';
import type { MetadataRepository } from '../repositories/metadata.repository';
import type { CoverOwner, CoverRow, UploadedCoversRepository } from '../repositories/uploaded-covers.repository';
import type { Viewer } from '../repositories/visibility';
import { coverOriginalKey, coverThumbnailKey } from '../storage/cache-keys';
import { refreshSeriesThumbnail } from '../thumbnails/thumbnail-generator';
import type { SettingsService } from './settings.service';

export const MAX_COVER_BYTES = 20 * 1024 * 1024;
export const MAX_COVER_PIXELS = 50_000_000;

export interface CoversServiceDeps {
  db: Database;
  metadata: MetadataRepository;
  covers: UploadedCoversRepository;
  cache: R2Bucket;
  renderer: RendererClient | null;
  settings: SettingsService;
  events: EventPublisher;
}

/** An uploaded image checked and thumbnailed, not stored yet (`CoversService.readyToStore`). */
export interface PreparedCover {
  id: string;
  owner: CoverOwner;
  libraryId: string;
  bytes: Uint8Array;
  mediaType: NonNullable<ReturnType<typeof sniffCoverImage>>;
  info: Awaited<ReturnType<RendererClient['probe']>>;
  thumbnail: Awaited<ReturnType<RendererClient['thumbnail']>>;
  /** The owner's cover selected before this one: selected again should storing this one fail. */
  selectedBefore: string | null;
}

/** What a caller writes with a cover's row (an import's memory of it), and what takes that back. */
export interface AlongWithCover {
  write: Statement[];
  undo: Statement[];
}

export class CoversService {
  constructor(private readonly deps: CoversServiceDeps) {}

  /** The owner, visible to the viewer (a hidden one is a 404 like a missing one), and its library. */
  private async owner(viewer: Viewer, owner: CoverOwner): Promise<{ libraryId: string; seriesId: string }> {
    if (owner.kind === 'series') {
      const found = await this.deps.metadata.series(viewer, owner.id);
      if (!found) throw notFound('Series');
      return { libraryId: found.row.libraryId, seriesId: found.row.id };
    }
    const found = await this.deps.metadata.book(viewer, owner.id);
    if (!found) throw notFound('Book');
    return { libraryId: found.row.libraryId, seriesId: found.row.seriesId };
  }

  async list(viewer: Viewer, owner: CoverOwner): Promise<CoverRow[]> {
    await this.owner(viewer, owner);
    return this.deps.covers.list(owner);
  }

  /** Stores an uploaded image as a cover of the owner; `select` makes it the one shown. */
  async upload(viewer: Viewer, owner: CoverOwner, bytes: Uint8Array, select: boolean): Promise<CoverRow> {
    return this.store(await this.readyToStore(viewer, owner, bytes), select);
  }

  /**
   * What storing an image as a cover needs, read and made before anything is written: the owner (a hidden one
   * is a 404) and its selected cover, the image checked and its thumbnail rendered (the renderer is near).
   */
  async readyToStore(viewer: Viewer, owner: CoverOwner, bytes: Uint8Array): Promise<PreparedCover> {
    const { renderer, settings, covers } = this.deps;
    const [{ libraryId }, maxSide, selectedBefore] = await Promise.all([
      this.owner(viewer, owner),
      settings.value('thumbnails.max_size'),
      covers.selectedId(owner),
    ]);
    if (bytes.byteLength === 0) throw badRequest('The cover is empty');
    if (bytes.byteLength > MAX_COVER_BYTES)
      throw badRequest(`The cover is larger than ${MAX_COVER_BYTES / 1024 / 1024} MB`);
    const mediaType = sniffCoverImage(bytes.subarray(0, 16));
    if (!mediaType) throw badRequest('The cover is not a JPEG, PNG or WebP image');
    if (!renderer) throw new AppError('ServiceUnavailable', 'Image processing is not available on this server');
    const buffer = bytes.slice().buffer as ArrayBuffer;
    try {
      const info = await renderer.probe(buffer.slice(0));
      if (info.width * info.height > MAX_COVER_PIXELS)
        throw badRequest(`The cover has more than ${MAX_COVER_PIXELS / 1_000_000} million pixels`);
      const thumbnail = await renderer.thumbnail(buffer.slice(0), mediaType, maxSide);
      return { id: crypto.randomUUID(), owner, libraryId, bytes, mediaType, info, thumbnail, selectedBefore };
    } catch (error) {
      if (error instanceof ImageRenderError)
        throw badRequest(`The cover could not be read as an image: ${error.message}`);
      throw error;
    }
  }

  /**
   * Stores a prepared cover: its image, its thumbnail and its row (selected when `select`, in one batch with
   * `along.write`) all at once — after the credential check, one far round trip (docs/DECISIONS.md §Far readers,
   * "Writes wait for the check"). A reader may find the row a moment before its images: the thumbnail route then
   * shows the cover shown before (a book's generated one, a series' first book's) and keeps it under no version.
   * Should an image not be stored, the row is taken back (the earlier selection and `along.undo` with it) and
   * the error is the answer; should the row not be written, the images no row names are deleted.
   */
  async store(
    prepared: PreparedCover,
    select: boolean,
    along: AlongWithCover = { write: [], undo: [] },
  ): Promise<CoverRow> {
    const { id, owner, bytes, mediaType, info, thumbnail } = prepared;
    const { cache, covers, events } = this.deps;
    const now = new Date().toISOString();
    // Settled one by one: nothing is cleaned up while a put is still in flight (it would land after the delete).
    const [original, thumbnailStored, added] = await Promise.allSettled([
      cache.put(coverOriginalKey(id), bytes, { httpMetadata: { contentType: mediaType } }),
      cache.put(coverThumbnailKey(id), thumbnail.bytes, { httpMetadata: { contentType: thumbnail.mediaType } }),
      covers.add(
        owner,
        {
          id,
          seriesId: owner.kind === 'series' ? owner.id : null,
          bookId: owner.kind === 'book' ? owner.id : null,
          mediaType,
          fileSize: bytes.byteLength,
          width: info.width,
          height: info.height,
          selected: false,
          createdAt: now,
          updatedAt: now,
        },
        select ? { seriesThumbnailKey: coverThumbnailKey(id) } : null,
        along.write,
      ),
    ]);
    const unstored = [original, thumbnailStored].find((put): put is PromiseRejectedResult => put.status === 'rejected');
    if (unstored) {
      if (added.status === 'fulfilled') await this.takeBack(prepared, select, along.undo);
      await this.dropImages(id);
      throw unstored.reason;
    }
    if (added.status === 'rejected') {
      await this.dropImages(id);
      throw added.reason;
    }
    if (select) {
      events.publish({
        type: 'cover_updated',
        entity_type: owner.kind,
        entity_id: owner.id,
        library_id: prepared.libraryId,
      });
    }
    return added.value;
  }

  /**
   * Takes back a cover whose row was written but whose images were not: its row goes, the cover selected before
   * shows again. Should that fail too, the row stays and the thumbnail route shows the earlier cover in its place.
   */
  private async takeBack(prepared: PreparedCover, select: boolean, undo: Statement[]): Promise<void> {
    const { id, owner, selectedBefore, libraryId } = prepared;
    const { covers, events, db } = this.deps;
    const restore = select
      ? { coverId: selectedBefore, seriesThumbnailKey: selectedBefore ? coverThumbnailKey(selectedBefore) : null }
      : null;
    try {
      await covers.takeBack(owner, id, restore, undo, new Date().toISOString());
      if (!select) return;
      events.publish({ type: 'cover_updated', entity_type: owner.kind, entity_id: owner.id, library_id: libraryId });
      if (owner.kind === 'series' && selectedBefore === null) await refreshSeriesThumbnail(db, events, owner.id);
    } catch (error) {
      console.error(JSON.stringify({ level: 'error', msg: 'cover not taken back', coverId: id, error: String(error) }));
    }
  }

  /** Deletes a cover's images (what of them was stored); a failure is logged, the caller's error is the answer. */
  private async dropImages(id: string): Promise<void> {
    await this.deps.cache.delete([coverOriginalKey(id), coverThumbnailKey(id)]).catch((error: unknown) => {
      console.error(
        JSON.stringify({ level: 'error', msg: 'cover images not deleted', coverId: id, error: String(error) }),
      );
    });
  }

  /** Shows this uploaded cover. */
  async select(viewer: Viewer, owner: CoverOwner, coverId: string): Promise<void> {
    const { libraryId } = await this.owner(viewer, owner);
    if (!(await this.deps.covers.one(owner, coverId))) throw notFound('Cover');
    await this.applySelection(owner, coverId, libraryId);
  }

  /** Shows the generated cover again (a book's cover page, a series' first book); uploads are kept. */
  async reset(viewer: Viewer, owner: CoverOwner): Promise<void> {
    const { libraryId } = await this.owner(viewer, owner);
    await this.applySelection(owner, null, libraryId);
  }

  /** Deletes an uploaded cover (and its images); the generated cover shows if it was selected. */
  async remove(viewer: Viewer, owner: CoverOwner, coverId: string): Promise<void> {
    const { libraryId } = await this.owner(viewer, owner);
    const cover = await this.deps.covers.one(owner, coverId);
    if (!cover) throw notFound('Cover');
    if (cover.selected) await this.applySelection(owner, null, libraryId);
    await this.deps.covers.delete(owner, coverId);
    await this.deps.cache.delete([coverOriginalKey(coverId), coverThumbnailKey(coverId)]);
  }

  /** One uploaded cover's thumbnail (Komga `GET …/thumbnails/{id}`). */
  async image(viewer: Viewer, owner: CoverOwner, coverId: string): Promise<MediaResponse> {
    await this.owner(viewer, owner);
    if (!(await this.deps.covers.one(owner, coverId))) throw notFound('Cover');
    const object = await this.deps.cache.get(coverThumbnailKey(coverId));
    if (!object) throw notFound('Cover');
    return {
      status: 200,
      headers: {
        ETag: object.httpEtag,
        'Cache-Control': THUMBNAIL_CACHE_CONTROL,
        'Content-Type': object.httpMetadata?.contentType ?? 'image/jpeg',
        'Content-Length': String(object.size),
      },
      body: object.body,
    };
  }

  private async applySelection(owner: CoverOwner, coverId: string | null, libraryId: string): Promise<void> {
    const now = new Date().toISOString();
    await this.deps.covers.select(owner, coverId, coverId ? coverThumbnailKey(coverId) : null, now);
    const { events, db } = this.deps;
    events.publish({ type: 'cover_updated', entity_type: owner.kind, entity_id: owner.id, library_id: libraryId });
    // Back to the first book's cover: the series points at it again (and announces it).
    if (owner.kind === 'series' && coverId === null) await refreshSeriesThumbnail(db, events, owner.id);
  }
}
