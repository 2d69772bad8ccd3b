/**
 * Uploaded covers of series and books (issue 18 point 3; Codex-rs's cover routes, Komga's thumbnails):
 * upload (JPEG, PNG or WebP told from the bytes, at most 20 MB and 50 megapixels, decoded and thumbnailed
 * by the renderer), list, select, delete, and reset to the generated cover (a book's cover page, a
 * series' first book). The image and its thumbnail live in the CACHE bucket under `covers/<id>/`, never
 * among the user's book files. Every change of what shows announces `cover_updated`.
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
   * is a 404), the image checked and its thumbnail rendered (the renderer is near).
   */
  async readyToStore(viewer: Viewer, owner: CoverOwner, bytes: Uint8Array): Promise<PreparedCover> {
    const { renderer, settings } = this.deps;
    const [{ libraryId }, maxSide] = await Promise.all([
      this.owner(viewer, owner),
      settings.value('thumbnails.max_size'),
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
      return { id: crypto.randomUUID(), owner, libraryId, bytes, mediaType, info, thumbnail };
    } catch (error) {
      if (error instanceof ImageRenderError)
        throw badRequest(`The cover could not be read as an image: ${error.message}`);
      throw error;
    }
  }

  /**
   * Stores a prepared cover: its image and thumbnail, then its row (never a row naming an image not stored
   * yet), selected when `select`, in one batch with `alsoWrite` (what an import remembers of it).
   */
  async store(prepared: PreparedCover, select: boolean, alsoWrite: Statement[] = []): Promise<CoverRow> {
    const { id, owner, bytes, mediaType, info, thumbnail } = prepared;
    const { cache, covers, events } = this.deps;
    await Promise.all([
      cache.put(coverOriginalKey(id), bytes, { httpMetadata: { contentType: mediaType } }),
      cache.put(coverThumbnailKey(id), thumbnail.bytes, { httpMetadata: { contentType: thumbnail.mediaType } }),
    ]);
    const now = new Date().toISOString();
    const row = await covers.add(
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
      alsoWrite,
    );
    if (select) {
      events.publish({
        type: 'cover_updated',
        entity_type: owner.kind,
        entity_id: owner.id,
        library_id: prepared.libraryId,
      });
    }
    return row;
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
