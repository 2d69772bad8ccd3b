/**
 * Covers (API.md §4: GET /books|/series|/libraries/{id}/thumbnail; DECISIONS.md §Books: longest side
 * `thumbnails.max_size`, cached, ETag + 304). A stored thumbnail is served from the CACHE bucket. A
 * book without one yet (a scan's generate_thumbnails task has not reached it) gets it rendered on
 * demand and stored, which also points its series (and library) at it and announces `cover_updated`.
 * A series shows its stored cover (its first book's, or a custom one), else its first book's; a library
 * shows its first series' by title. Anything without an image gets the placeholder cover on /api/v1;
 * reader apps (Komga's clients, OPDS) get a 404 instead, as Komga answers, and show their own placeholder
 * rather than a broken tile (many cannot decode SVG). When the image the catalog names is not there (a new
 * uploaded cover's row is written beside its images: covers.service.ts `store`), the next source answers — the
 * generated cover, a series' first book's, the placeholder — marked as a stand-in, which no `?v=` address keeps.
 *
 * Round trips (issue 30): a cover's bytes are kept in the data center's cache (pages/edge-page-cache.ts), in
 * one entry per book or series that records which version of the cover it holds — the catalog's: an uploaded
 * cover's id (its image never changes), or when the generated thumbnail under the key was last written. The
 * entry is looked up while the row is read, and counts only when the row names the same version, so a cover
 * seen again costs the row alone, no R2 read. A book's generated thumbnail lives under a key known before the
 * row (`thumbnails/books/{id}`): when the data center has nothing, it is read from R2 at the same time as the
 * row, which only overrides it when an uploaded cover is selected; a series' key is known from its row only, so
 * the key this isolate last saw for it is read the same way. Bytes read that way are kept in the data
 * center only once a second look (an R2 head, after the answer) shows they are still the object under the
 * key, since the row read beside them may already name a newer version.
 */
import type { Database } from '../db/client';
import type { Defer } from '../lib/deferred-work';
import type { EventPublisher } from '../events/events';
import { notFound } from '../lib/errors';
import type { RendererClient } from '../media/image-renderer';
import {
  coverEdgeCacheKey,
  type EdgeCachedPage,
  type EdgePageCache,
  sizedCoverEdgeCacheKey,
} from '../pages/edge-page-cache';
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
import { BOOK_THUMBNAILS_ROOT, bookThumbnailKey, coverThumbnailKey, sizedCoverKey } from '../storage/cache-keys';
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
  /** Covers near the reader (Workers Cache API); null where the runtime has none or it is turned off. */
  edgeCache: EdgePageCache | null;
  /** Runs work after the response (ctx.waitUntil). */
  /** Work for after the answer, held while the answer is made before the credential check. */
  defer: Defer;
}

type SeriesRef = { id: string; thumbnailKey: string | null; deletedAt: string | null; coverWrittenAt?: string | null };

/** What a cover request brings: its validator, and the origin the edge-cache keys live under. */
export interface CoverRequest {
  ifNoneMatch?: string | undefined;
  origin?: string;
}

/** Where a cover's bytes are in the CACHE bucket, and which version of the cover they are (null: unknown). */
interface CoverSource {
  storageKey: string;
  version: string | null;
}

/** The data center's entry for one cover, as looked up beside the row. */
interface NearCover {
  key: string;
  hit: EdgeCachedPage | null;
}

/** What is served for something with no cover image: the API's SVG placeholder, or a 404. */
export type MissingCover = 'placeholder' | 'notFound';

export class ThumbnailService {
  constructor(private readonly deps: ThumbnailServiceDeps) {}

  async forBook(
    viewer: Viewer,
    bookId: string,
    request: CoverRequest = {},
    missing: MissingCover = 'placeholder',
  ): Promise<MediaResponse> {
    const row = settled(this.deps.repo.coverBook(viewer, bookId));
    const near = await this.near('books', bookId, request);
    // The generated thumbnail's key needs no row: read it now unless the data center may already hold the cover.
    const ahead = near?.hit ? null : this.read(bookThumbnailKey(bookId), request.ifNoneMatch);
    const book = await row.catch(async (error) => {
      await dropAll(near, ahead);
      throw error;
    });
    if (!book || book.deletedAt) {
      await dropAll(near, ahead);
      throw notFound(`Book ${bookId}`);
    }
    const cover = await this.bookCover(viewer, book, request, near, ahead);
    return cover ?? noCover(missing, request.ifNoneMatch, coverSources(book).length > 0);
  }

  /**
   * The book's cover within `box`, as JPEG (a Kobo asks for its grid and full-screen sizes: its image URL
   * template). Made once per cover version and size by the renderer from the cover the API serves (never
   * enlarged: a larger box gets the cover at its own size), and kept beside the book's page renditions — and, with
   * the edge cache on, in the data center, in an entry per size that records the version of the cover it was drawn
   * from: counted only while the row names that version, it answers with no R2 read at all.
   */
  async forBookWithin(
    viewer: Viewer,
    bookId: string,
    box: { width: number; height: number },
    request: CoverRequest = {},
  ): Promise<MediaResponse> {
    const { cache, renderer } = this.deps;
    const { ifNoneMatch } = request;
    const row = settled(this.deps.repo.coverBook(viewer, bookId));
    const near = await this.lookNear(
      request.origin ? sizedCoverEdgeCacheKey(request.origin, bookId, box.width, box.height) : null,
    );
    // The sized cover's key names the cover's version, known only from the cover: the key this isolate last made
    // for the book and size is read beside it (a device asks for the same sizes on every sync), as is the cover's
    // generated thumbnail (which the row overrides only when an uploaded cover is selected).
    const sized = `${bookId}/${box.width}x${box.height}`;
    const lastKey = near?.hit ? undefined : sizedCoverKeys.get(sized);
    const ahead = lastKey ? settled(cache.get(lastKey)) : null;
    const aheadCover = near?.hit ? null : this.read(bookThumbnailKey(bookId), undefined);
    const drop = () => Promise.all([dropAll(near, ahead), dropRead(aheadCover)]);
    const book = await row.catch(async (error) => {
      await drop();
      throw error;
    });
    if (!book || book.deletedAt) {
      await drop();
      throw notFound(`Book ${bookId}`);
    }
    const source = coverSources(book)[0] ?? null;
    const fromNear = source && answerFromNear(near, source, ifNoneMatch);
    if (fromNear) {
      await Promise.all([dropRead(ahead), dropRead(aheadCover)]);
      return fromNear;
    }
    await dropNear(near);
    const cover = await this.bookCover(viewer, book, {}, null, aheadCover).catch(async (error) => {
      await dropRead(ahead);
      throw error;
    });
    if (!cover) {
      await dropRead(ahead);
      return noCover('notFound', undefined);
    }
    const coverEtag = cover.headers.ETag ?? '';
    const etag = `"${coverEtag.replace(/"/g, '')}-${box.width}x${box.height}"`;
    const headers = { ETag: etag, 'Cache-Control': THUMBNAIL_CACHE_CONTROL };
    const key = sizedCoverKey(bookId, coverEtag, box.width, box.height);
    rememberSizedCoverKey(sized, key);
    const useAhead = lastKey === key && !ifNoneMatchHits(ifNoneMatch, etag);
    if (!useAhead) await dropRead(ahead);
    const stored = ifNoneMatchHits(ifNoneMatch, etag) ? null : await (useAhead && ahead ? ahead : cache.get(key));
    if (ifNoneMatchHits(ifNoneMatch, etag) || stored) {
      if (cover.body instanceof ReadableStream) await cover.body.cancel();
      if (!stored) return notModified(headers);
      const answer = { status: 200 as const, headers: { ...headers, 'Content-Type': 'image/jpeg' }, body: stored.body };
      return this.keptNear(near, source, coverEtag, { ...answer, size: stored.size });
    }
    if (!renderer || !(cover.body instanceof ReadableStream)) return cover;
    const image = await renderer.transform(cover.body, cover.headers['Content-Type'] ?? null, {
      ...box,
      format: 'jpeg',
    });
    await cache.put(key, image.bytes, { httpMetadata: { contentType: image.mediaType } });
    const answer = {
      status: 200 as const,
      headers: { ...headers, 'Content-Type': image.mediaType },
      body: image.bytes,
    };
    return this.keptNear(near, source, coverEtag, { ...answer, size: image.bytes.byteLength });
  }

  /**
   * A sized cover's answer (with its Content-Length), kept in the data center under `near.key` after the answer as
   * drawn from the cover `source` names — once an R2 head shows the object under the source's key is still the one
   * it was drawn from (`coverEtag`): the row read beside the cover may name a newer one.
   */
  private keptNear(
    near: NearCover | null,
    source: CoverSource | null,
    coverEtag: string,
    answer: MediaResponse & { body: ReadableStream<Uint8Array> | ArrayBuffer; size: number },
  ): MediaResponse {
    const { size, ...response } = answer;
    response.headers = { ...response.headers, 'Content-Length': String(size) };
    const { edgeCache, defer, cache } = this.deps;
    const version = source?.version ?? null;
    if (!edgeCache || !near || !source || version === null) return response;
    let kept: ReadableStream<Uint8Array> | Uint8Array;
    if (response.body instanceof ReadableStream) {
      const [served, copy] = response.body.tee();
      response.body = served;
      kept = copy;
    } else {
      kept = new Uint8Array(response.body as ArrayBuffer);
    }
    const cancel = () => (kept instanceof ReadableStream ? kept.cancel().catch(() => {}) : undefined);
    const mediaType = response.headers['Content-Type'] ?? 'image/jpeg';
    const etag = response.headers.ETag as string;
    defer(
      async () => {
        if ((await cache.head(source.storageKey))?.httpEtag !== coverEtag) {
          await cancel();
          return;
        }
        await edgeCache.put(near.key, { body: kept, size, mediaType, etag, version });
      },
      // A caller refused by the check keeps nothing near the reader: the copy is cancelled unread.
      { dropped: () => void cancel() },
    );
    return response;
  }

  async forSeries(
    viewer: Viewer,
    seriesId: string,
    request: CoverRequest = {},
    missing: MissingCover = 'placeholder',
  ): Promise<MediaResponse> {
    const row = settled(this.deps.repo.series(viewer, seriesId, BOOK_THUMBNAILS_ROOT));
    const near = await this.near('series', seriesId, request);
    // A series' cover key is known only from its row; the one this isolate last saw is read beside the row.
    const lastKey = seriesCoverKeys.get(seriesId);
    const ahead = near?.hit || !lastKey ? null : { key: lastKey, read: this.read(lastKey, request.ifNoneMatch) };
    const series = await row.catch(async (error) => {
      await dropAll(near, ahead?.read ?? null);
      throw error;
    });
    if (!series || series.deletedAt) {
      await dropAll(near, ahead?.read ?? null);
      throw notFound(`Series ${seriesId}`);
    }
    rememberSeriesCoverKey(seriesId, series.thumbnailKey);
    const cover = await this.seriesCover(viewer, series, request, near, ahead);
    return cover ?? noCover(missing, request.ifNoneMatch, series.thumbnailKey !== null);
  }

  async forLibrary(
    viewer: Viewer,
    libraryId: string,
    request: CoverRequest = {},
    missing: MissingCover = 'placeholder',
  ): Promise<MediaResponse> {
    if (!(await this.deps.repo.library(viewer, libraryId))) throw notFound(`Library ${libraryId}`);
    // Followed on every request rather than read from libraries.thumbnail_key, which keeps whichever
    // series a thumbnail task happened to finish first, even after that series is gone.
    const first = await this.deps.repo.firstSeriesOfLibrary(viewer, libraryId);
    return (first && (await this.seriesCover(viewer, first, request, null))) ?? noCover(missing, request.ifNoneMatch);
  }

  /** A collection's or read list's cover: its first member the viewer sees (found by the list), or the placeholder. */
  async forListMember(
    viewer: Viewer,
    member: { kind: 'series' | 'book'; id: string } | null,
    request: CoverRequest = {},
  ): Promise<MediaResponse> {
    if (!member) return placeholder(request.ifNoneMatch);
    return member.kind === 'series'
      ? this.forSeries(viewer, member.id, request)
      : this.forBook(viewer, member.id, request);
  }

  /** The data center's entry for this cover, when the edge cache is on and the request names its origin. */
  private near(kind: 'books' | 'series', id: string, request: CoverRequest): Promise<NearCover | null> {
    return this.lookNear(request.origin ? coverEdgeCacheKey(request.origin, kind, id) : null);
  }

  /** The data center's entry under `key`, when the edge cache is on (and there is a key). */
  private async lookNear(key: string | null): Promise<NearCover | null> {
    const { edgeCache } = this.deps;
    if (!edgeCache || !key) return null;
    return { key, hit: await edgeCache.match(key) };
  }

  /** The series' cover image; null when it has none. */
  /** `ahead`: the stored cover under the key this isolate last saw for the series, read beside the row. */
  private async seriesCover(
    viewer: Viewer,
    series: SeriesRef,
    request: CoverRequest,
    near: NearCover | null,
    ahead: { key: string; read: Promise<R2Read> } | null = null,
  ) {
    const source = series.thumbnailKey
      ? { storageKey: series.thumbnailKey, version: versionOf(series.thumbnailKey, series.coverWrittenAt) }
      : null;
    const fromNear = source && answerFromNear(near, source, request.ifNoneMatch);
    if (fromNear) {
      await dropRead(ahead?.read ?? null);
      return fromNear;
    }
    await dropNear(near);
    const nearKey = near?.key ?? null;
    let stored: MediaResponse | null = null;
    if (source && ahead?.key === source.storageKey) {
      stored = this.storedFrom(await ahead.read, source, nearKey, true);
    } else {
      await dropRead(ahead?.read ?? null);
      if (source) stored = await this.stored(source, request.ifNoneMatch, nearKey);
    }
    if (stored) return stored;
    const first = await this.deps.repo.firstBookOfSeries(viewer, series.id);
    const cover = first ? await this.bookCover(viewer, first, { ifNoneMatch: request.ifNoneMatch }, null, null) : null;
    // The series names a cover whose image is not there: its first book's shows instead.
    return cover && source ? standIn(cover) : cover;
  }

  /**
   * The book's cover image (an uploaded, selected one first), rendered now if it was not yet; null when it has
   * none. `near`: the data center's entry; `ahead`: the generated thumbnail, read beside the row.
   */
  private async bookCover(
    viewer: Viewer,
    book: CoverBook,
    request: CoverRequest,
    near: NearCover | null,
    ahead: Promise<R2Read> | null,
  ): Promise<MediaResponse | null> {
    const { ifNoneMatch } = request;
    const generated = bookThumbnailKey(book.id);
    const sources = coverSources(book);
    const fromNear = sources[0] && answerFromNear(near, sources[0], ifNoneMatch);
    if (fromNear) {
      await dropRead(ahead);
      return fromNear;
    }
    await dropNear(near);
    let readAhead = ahead;
    // Any answer but the first source's stands in for the cover the book names (its image is not there).
    for (const [index, source] of sources.entries()) {
      const stored =
        readAhead && source.storageKey === generated
          ? await this.storedFrom(await readAhead, source, near?.key ?? null, true)
          : await this.stored(source, ifNoneMatch, near?.key ?? null);
      if (source.storageKey === generated) readAhead = null;
      if (stored) {
        await dropRead(readAhead);
        return index === 0 ? stored : standIn(stored);
      }
    }
    await dropRead(readAhead);
    if (await this.generate(viewer, book)) {
      const made = await this.stored({ storageKey: generated, version: null }, ifNoneMatch, null);
      return made && sources.length > 0 ? standIn(made) : made;
    }
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

  /** Reads a stored thumbnail (a 304 when `ifNoneMatch` names it); null when it is gone. */
  private read(key: string, ifNoneMatch: string | undefined): Promise<R2Read> {
    return settled(
      this.deps.cache.get(key, ifNoneMatch ? { onlyIf: new Headers({ 'If-None-Match': ifNoneMatch }) } : {}),
    );
  }

  /** The stored thumbnail (or a 304 for it); null when the object is gone from the CACHE bucket. */
  private async stored(source: CoverSource, ifNoneMatch: string | undefined, nearKey: string | null) {
    return this.storedFrom(await this.read(source.storageKey, ifNoneMatch), source, nearKey, false);
  }

  /**
   * The answer from a stored thumbnail, kept in the data center under `nearKey` after the answer. `readAhead`:
   * read beside the row that names the version, so it may be older than that version — kept only once an R2
   * head shows the object under the key is still the one read.
   */
  private storedFrom(
    object: R2Object | null,
    source: CoverSource,
    nearKey: string | null,
    readAhead: boolean,
  ): MediaResponse | null {
    if (!object) return null;
    const headers = { ETag: object.httpEtag, 'Cache-Control': THUMBNAIL_CACHE_CONTROL };
    if (!('body' in object)) return notModified(headers);
    const { edgeCache, defer, cache } = this.deps;
    const mediaType = object.httpMetadata?.contentType ?? 'image/jpeg';
    let body = (object as R2ObjectBody).body;
    const version = source.version;
    if (edgeCache && nearKey && version !== null) {
      const [served, kept] = body.tee();
      body = served;
      const fill = { body: kept, size: object.size, mediaType, etag: object.httpEtag, version };
      defer(
        async () => {
          if (readAhead && (await cache.head(source.storageKey))?.etag !== object.etag) {
            await kept.cancel();
            return;
          }
          await edgeCache.put(nearKey, fill);
        },
        // A caller refused by the check keeps nothing near the reader: the copy is cancelled unread.
        { dropped: () => void kept.cancel() },
      );
    }
    return {
      status: 200,
      headers: { ...headers, 'Content-Type': mediaType, 'Content-Length': String(object.size) },
      body,
    };
  }
}

/**
 * The cover key each series had when this isolate last read its row (bounded): its next cover request reads the
 * bytes under it beside the row, which confirms the key or names another.
 */
const seriesCoverKeys = new Map<string, string>();
const MAX_SERIES_COVER_KEYS = 2000;

function rememberSeriesCoverKey(seriesId: string, key: string | null): void {
  seriesCoverKeys.delete(seriesId);
  if (!key) return;
  if (seriesCoverKeys.size >= MAX_SERIES_COVER_KEYS)
    seriesCoverKeys.delete(seriesCoverKeys.keys().next().value as string);
  seriesCoverKeys.set(seriesId, key);
}

/** The sized-cover key this isolate last made per book and size (`{bookId}/{w}x{h}`), oldest dropped first. */
const sizedCoverKeys = new Map<string, string>();

function rememberSizedCoverKey(sized: string, key: string): void {
  sizedCoverKeys.delete(sized);
  if (sizedCoverKeys.size >= MAX_SERIES_COVER_KEYS) sizedCoverKeys.delete(sizedCoverKeys.keys().next().value as string);
  sizedCoverKeys.set(sized, key);
}

/** A stored thumbnail as read: the object, a 304's metadata, or null when it is gone. */
type R2Read = R2Object | null;

/** Where a book's cover may be, first choice first, with each one's version. */
function coverSources(book: CoverBook): CoverSource[] {
  // A cover a user uploaded and selected shows instead of the generated one (issue 18).
  return [
    ...(book.selectedCoverId ? [coverThumbnailKey(book.selectedCoverId)] : []),
    ...(book.thumbnailKey ? [book.thumbnailKey] : []),
  ].map((storageKey) => ({ storageKey, version: versionOf(storageKey, book.thumbnailUpdatedAt) }));
}

/**
 * The version of the cover under `storageKey`: an uploaded cover's key names bytes that never change; a
 * generated thumbnail is rewritten under its key, at the time the catalog records (`writtenAt`, null when it
 * does not: then there is no version to keep it by).
 */
function versionOf(storageKey: string, writtenAt: string | null | undefined): string | null {
  if (!storageKey.startsWith(BOOK_THUMBNAILS_ROOT)) return storageKey;
  return writtenAt ? `${storageKey}@${writtenAt}` : null;
}

/** The data center's copy when it holds the version the catalog names (a 304 when `ifNoneMatch` names it). */
function answerFromNear(
  near: NearCover | null,
  source: CoverSource,
  ifNoneMatch: string | undefined,
): MediaResponse | null {
  const hit = near?.hit;
  if (!hit || source.version === null || hit.version !== source.version || !hit.etag) return null;
  const headers = { ETag: hit.etag, 'Cache-Control': THUMBNAIL_CACHE_CONTROL, 'X-Longbox-Cache': 'hit' };
  if (ifNoneMatchHits(ifNoneMatch, hit.etag)) {
    void hit.body.cancel().catch(() => {});
    return notModified(headers);
  }
  return {
    status: 200,
    headers: { ...headers, 'Content-Type': hit.mediaType, 'Content-Length': String(hit.size) },
    body: hit.body,
  };
}

/** A promise with a handler from the start: awaited later, its failure is not reported as unhandled meanwhile. */
function settled<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

async function dropNear(near: NearCover | null): Promise<void> {
  await near?.hit?.body.cancel().catch(() => {});
}

async function dropRead(read: Promise<R2Read> | null): Promise<void> {
  const object = await read?.catch(() => null);
  if (object && 'body' in object) await (object as R2ObjectBody).body.cancel().catch(() => {});
}

async function dropAll(near: NearCover | null, read: Promise<R2Read> | null): Promise<void> {
  await Promise.all([dropNear(near), dropRead(read)]);
}

function standIn(answer: MediaResponse): MediaResponse {
  return { ...answer, standIn: true };
}

/** `namesCover`: the catalog names an image that is not there (the placeholder then stands in for it). */
function noCover(missing: MissingCover, ifNoneMatch: string | undefined, namesCover = false): MediaResponse {
  if (missing === 'notFound') throw notFound('Thumbnail');
  return namesCover ? standIn(placeholder(ifNoneMatch)) : placeholder(ifNoneMatch);
}

function placeholder(ifNoneMatch: string | undefined): MediaResponse {
  const headers = { ETag: PLACEHOLDER_ETAG, 'Cache-Control': REVALIDATE_CACHE_CONTROL };
  if (ifNoneMatchHits(ifNoneMatch, PLACEHOLDER_ETAG)) return notModified(headers);
  return { status: 200, headers: { ...headers, 'Content-Type': PLACEHOLDER_MEDIA_TYPE }, body: PLACEHOLDER_SVG };
}
