/**
 * Covers (API.md §4: GET /books|/series|/libraries/{id}/thumbnail; DECISIONS.md §Books: longest side
 * `thumbnails.max_size`, cached, ETag + 304). A stored thumbnail is served from the CACHE bucket. A
 * book without one yet (a scan's generate_thumbnails task has not reached it) gets it rendered on
 * demand and stored, which also points its series (and library) at it and announces `cover_updated`.
 * A series shows its stored cover (its first book's, or a custom one), else its first book's; a library
 * shows its first series' by title. Anything without an image gets the placeholder cover on /api/v1;
 * reader apps (Komga's clients, OPDS) get a 404 instead, as Komga answers, and show their own placeholder
 * rather than a broken tile (many cannot decode SVG).
 */
import type { Database } from '../db/client';
import type { EventPublisher } from '../events/events';
import { notFound } from '../lib/errors';
import type { RendererClient } from '../media/image-renderer';
import {
  ifNoneMatchHits,
  type MediaResponse,
  notModified,
  REVALIDATE_CACHE_CONTROL,
  THUMBNAIL_CACHE_CONTROL,
} from '../pages/media-response';
import { PLACEHOLDER_ETAG, PLACEHOLDER_MEDIA_TYPE, PLACEHOLDER_SVG } from '../pages/placeholder-cover';
import type { BookMediaRepository, CoverBook } from '../repositories/book-media.repository';
import type { Viewer } from '../repositories/visibility';
import { bookThumbnailKey, coverThumbnailKey, sizedCoverKey } from '../storage/cache-keys';
import { generateBookThumbnail, refreshSeriesThumbnail } from '../thumbnails/thumbnail-generator';
import type { SettingsService } from './settings.service';

export interface ThumbnailServiceDeps {
  repo: BookMediaRepository;
  db: Database;
  env: Env;
  cache: R2Bucket;
  renderer: RendererClient | null;
  settings: SettingsService;
  events: EventPublisher;
}

type SeriesRef = { id: string; thumbnailKey: string | null; deletedAt: string | null };

/** What is served for something with no cover image: the API's SVG placeholder, or a 404. */
export type MissingCover = 'placeholder' | 'notFound';

export class ThumbnailService {
  constructor(private readonly deps: ThumbnailServiceDeps) {}

  async forBook(
    viewer: Viewer,
    bookId: string,
    ifNoneMatch?: string,
    missing: MissingCover = 'placeholder',
  ): Promise<MediaResponse> {
    const book = await this.deps.repo.coverBook(viewer, bookId);
    if (!book || book.deletedAt) throw notFound(`Book ${bookId}`);
    return (await this.bookCover(viewer, book, ifNoneMatch)) ?? noCover(missing, ifNoneMatch);
  }

  /**
   * The book's cover within `box`, as JPEG (a Kobo asks for its grid and full-screen sizes: its image URL
   * template). Made once per cover version and size by the renderer from the cover the API serves (never
   * enlarged: a larger box gets the cover at its own size), and kept beside the book's page renditions.
   */
  async forBookWithin(
    viewer: Viewer,
    bookId: string,
    box: { width: number; height: number },
    ifNoneMatch?: string,
  ): Promise<MediaResponse> {
    const cover = await this.forBook(viewer, bookId, undefined, 'notFound');
    const coverEtag = cover.headers.ETag ?? '';
    const etag = `"${coverEtag.replace(/"/g, '')}-${box.width}x${box.height}"`;
    const headers = { ETag: etag, 'Cache-Control': THUMBNAIL_CACHE_CONTROL };
    const key = sizedCoverKey(bookId, coverEtag, box.width, box.height);
    const { cache, renderer } = this.deps;
    const stored = ifNoneMatchHits(ifNoneMatch, etag) ? null : await cache.get(key);
    if (ifNoneMatchHits(ifNoneMatch, etag) || stored) {
      if (cover.body instanceof ReadableStream) await cover.body.cancel();
      if (!stored) return notModified(headers);
      const length = { 'Content-Length': String(stored.size) };
      return { status: 200, headers: { ...headers, 'Content-Type': 'image/jpeg', ...length }, body: stored.body };
    }
    if (!renderer || !(cover.body instanceof ReadableStream)) return cover;
    const image = await renderer.transform(cover.body, cover.headers['Content-Type'] ?? null, {
      ...box,
      format: 'jpeg',
    });
    await cache.put(key, image.bytes, { httpMetadata: { contentType: image.mediaType } });
    return {
      status: 200,
      headers: { ...headers, 'Content-Type': image.mediaType, 'Content-Length': String(image.bytes.byteLength) },
      body: image.bytes,
    };
  }

  async forSeries(
    viewer: Viewer,
    seriesId: string,
    ifNoneMatch?: string,
    missing: MissingCover = 'placeholder',
  ): Promise<MediaResponse> {
    const series = await this.deps.repo.series(viewer, seriesId);
    if (!series || series.deletedAt) throw notFound(`Series ${seriesId}`);
    return (await this.seriesCover(viewer, series, ifNoneMatch)) ?? noCover(missing, ifNoneMatch);
  }

  async forLibrary(
    viewer: Viewer,
    libraryId: string,
    ifNoneMatch?: string,
    missing: MissingCover = 'placeholder',
  ): Promise<MediaResponse> {
    if (!(await this.deps.repo.library(viewer, libraryId))) throw notFound(`Library ${libraryId}`);
    // Followed on every request rather than read from libraries.thumbnail_key, which keeps whichever
    // series a thumbnail task happened to finish first, even after that series is gone.
    const first = await this.deps.repo.firstSeriesOfLibrary(viewer, libraryId);
    return (first && (await this.seriesCover(viewer, first, ifNoneMatch))) ?? noCover(missing, ifNoneMatch);
  }

  /** A collection's or read list's cover: its first member the viewer sees (found by the list), or the placeholder. */
  async forListMember(
    viewer: Viewer,
    member: { kind: 'series' | 'book'; id: string } | null,
    ifNoneMatch?: string,
  ): Promise<MediaResponse> {
    if (!member) return placeholder(ifNoneMatch);
    return member.kind === 'series'
      ? this.forSeries(viewer, member.id, ifNoneMatch)
      : this.forBook(viewer, member.id, ifNoneMatch);
  }

  /** The series' cover image; null when it has none. */
  private async seriesCover(viewer: Viewer, series: SeriesRef, ifNoneMatch: string | undefined) {
    const stored = series.thumbnailKey ? await this.stored(series.thumbnailKey, ifNoneMatch) : null;
    if (stored) return stored;
    const first = await this.deps.repo.firstBookOfSeries(viewer, series.id);
    return first ? this.bookCover(viewer, first, ifNoneMatch) : null;
  }

  /** The book's cover image (an uploaded, selected one first), rendered now if it was not yet; null when it has none. */
  private async bookCover(
    viewer: Viewer,
    book: CoverBook,
    ifNoneMatch: string | undefined,
  ): Promise<MediaResponse | null> {
    // A cover a user uploaded and selected shows instead of the generated one (issue 18).
    const custom = book.selectedCoverId
      ? await this.stored(coverThumbnailKey(book.selectedCoverId), ifNoneMatch)
      : null;
    if (custom) return custom;
    const stored = book.thumbnailKey ? await this.stored(book.thumbnailKey, ifNoneMatch) : null;
    if (stored) return stored;
    if (await this.generate(viewer, book)) return this.stored(bookThumbnailKey(book.id), ifNoneMatch);
    return null;
  }

  /** Renders and stores the book's thumbnail; false when there is no image to make one from. */
  private async generate(viewer: Viewer, cover: CoverBook): Promise<boolean> {
    const { renderer, db, env, events, settings } = this.deps;
    if (cover.analysisError || !renderer) return false;
    // Only now the full row: the renderer needs the book's container index.
    const book = await this.deps.repo.fullBook(viewer, cover.id);
    if (!book) return false;
    try {
      const maxSide = await settings.value('thumbnails.max_size');
      if (!(await generateBookThumbnail(db, env, renderer, book, maxSide))) return false;
    } catch (error) {
      // A page the renderer cannot read must not break a cover grid: the placeholder stands in.
      console.warn(JSON.stringify({ level: 'warn', msg: 'thumbnail failed', bookId: book.id, error: String(error) }));
      return false;
    }
    events.publish({ type: 'cover_updated', entity_type: 'book', entity_id: book.id, library_id: book.libraryId });
    await refreshSeriesThumbnail(db, events, book.seriesId);
    return true;
  }

  /** The stored thumbnail (or a 304 for it); null when the object is gone from the CACHE bucket. */
  private async stored(key: string, ifNoneMatch: string | undefined): Promise<MediaResponse | null> {
    const object = await this.deps.cache.get(
      key,
      ifNoneMatch ? { onlyIf: new Headers({ 'If-None-Match': ifNoneMatch }) } : {},
    );
    if (!object) return null;
    const headers = { ETag: object.httpEtag, 'Cache-Control': THUMBNAIL_CACHE_CONTROL };
    if (!('body' in object)) return notModified(headers);
    return {
      status: 200,
      headers: {
        ...headers,
        'Content-Type': object.httpMetadata?.contentType ?? 'image/jpeg',
        'Content-Length': String(object.size),
      },
      body: object.body,
    };
  }
}

function noCover(missing: MissingCover, ifNoneMatch: string | undefined): MediaResponse {
  if (missing === 'notFound') throw notFound('Thumbnail');
  return placeholder(ifNoneMatch);
}

function placeholder(ifNoneMatch: string | undefined): MediaResponse {
  const headers = { ETag: PLACEHOLDER_ETAG, 'Cache-Control': REVALIDATE_CACHE_CONTROL };
  if (ifNoneMatchHits(ifNoneMatch, PLACEHOLDER_ETAG)) return notModified(headers);
  return { status: 200, headers: { ...headers, 'Content-Type': PLACEHOLDER_MEDIA_TYPE }, body: PLACEHOLDER_SVG };
}
