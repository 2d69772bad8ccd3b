/**
 * Pages of a book (API.md §4 Pages, DECISIONS.md §Books). Without parameters a page is its original
 * bytes, streamed from one R2 range read. With width/height/format it is resized or transcoded by the
 * renderer, once: the result is kept in the CACHE bucket under the book's etag, so the next request
 * costs no image work and a replaced file never gets an old rendering. A request the original already
 * satisfies (no smaller bound, same format) is answered with the original. Originals and renditions are
 * also kept in the data center's cache (pages/edge-page-cache.ts), so a page seen again makes no trip to R2.
 *
 * Round trips (issue 30): the book's page table comes from a short-lived cache (pages/page-table-cache.ts),
 * so reading a book page by page costs one D1 round trip for the book, not one per page; a viewer's access to
 * a kept table is checked at the same time as the bytes are read, and the bytes wait for it. Storing a new
 * rendition in the CACHE bucket and the edge cache happens after the answer.
 */
import type { Defer } from '../lib/deferred-work';
import { AppError, notFound } from '../lib/errors';
import type { PageLocator } from '../media/container';
import { BookAnalysisError } from '../media/errors';
import { ImageRenderError, type RendererClient, toAppError } from '../media/image-renderer';
import {
  type EdgePageCache,
  MAX_EDGE_CACHED_PAGE_BYTES,
  originalPageCacheKey,
  renditionEdgeCacheKey,
} from '../pages/edge-page-cache';
import { type MediaResponse, notModified, ifNoneMatchHits, PAGE_CACHE_CONTROL } from '../pages/media-response';
import {
  FileChangedSinceScan,
  openStoredPage,
  PDF_RENDER_MAX_SIDE,
  readStoredPageSize,
  renderPage,
  type StoredPage,
} from '../storage/page-source';
import { type PageTable, pageTable, pageTableStore } from '../pages/page-table-cache';
import {
  isOriginalRequest,
  needsRendering,
  needsTransform,
  outputFormatFor,
  pageEtag,
  type PageVariant,
  renditionCacheKey,
  renditionName,
} from '../pages/page-variant';
import type { BookMediaRepository, MediaBook, MediaPage } from '../repositories/book-media.repository';
import type { BookPaging } from '../repositories/books.repository';
import type { Viewer } from '../repositories/visibility';
import type { BookPageEntry } from '../schemas/page.schema';

export interface PageServiceDeps {
  repo: BookMediaRepository;
  library: R2Bucket;
  cache: R2Bucket;
  renderer: RendererClient | null;
  /** Original pages near the reader (Workers Cache API); null where the runtime has none. */
  edgeCache: EdgePageCache | null;
  /** Runs work after the response (ctx.waitUntil). */
  defer: Defer;
}

/** Pixel size of a rendered PDF page as served without parameters: its page box scaled to the default side. */
function renderedPdfSize(locator: PageLocator): { width: number; height: number } | null {
  const { width, height } = locator;
  if (locator.kind !== 'pdf-render' || typeof width !== 'number' || typeof height !== 'number') return null;
  if (width <= 0 || height <= 0) return null;
  // The renderer's naturalPageSize over PDFium's page size, which is a 32-bit float (FPDF_GetPageWidthF).
  const [w, h] = [Math.fround(width), Math.fround(height)];
  const scale = PDF_RENDER_MAX_SIDE / Math.max(w, h);
  return { width: Math.max(1, Math.round(w * scale)), height: Math.max(1, Math.round(h * scale)) };
}

/** Page errors of the stored file, in the words the format readers chose for the file's owner. */
function fromAnalysisError(error: BookAnalysisError): AppError {
  if (error.code === 'file_missing') {
    return new AppError('NotFound', 'The book file is no longer in storage; scan the library again');
  }
  return new AppError('UnprocessableEntity', error.message);
}

/** What the page request itself brings: its validator, and the origin the edge-cache keys live under. */
export interface PageRequest {
  ifNoneMatch?: string;
  origin: string;
}

/** One page asked for: which book and page, in which rendition, by which request. */
export interface PageAsk {
  bookId: string;
  /** 1-based. */
  pageNumber: number;
  variant: PageVariant;
  request: PageRequest;
}

export class PageService {
  constructor(private readonly deps: PageServiceDeps) {}

  /** The book, if its pages can be listed or served at all. */
  private servableBook(book: MediaBook | undefined, bookId: string): MediaBook {
    if (!book || book.deletedAt) throw notFound(`Book ${bookId}`);
    if (book.analysisError) {
      throw new AppError('UnprocessableEntity', `The book could not be analysed: ${book.analysisError}`);
    }
    return book;
  }

  /** The book's page table: kept near the reader, kept in the data center's cache too when the edge cache is on. */
  private table(viewer: Viewer, bookId: string, origin: string, fresh = false) {
    const store = this.deps.edgeCache ? pageTableStore(origin) : null;
    return pageTable(this.deps.repo, viewer, bookId, { fresh, store, defer: this.deps.defer });
  }

  async list(viewer: Viewer, bookId: string, origin: string): Promise<BookPageEntry[]> {
    const table = await this.table(viewer, bookId, origin);
    if (table && !(await table.visible)) throw notFound(`Book ${bookId}`);
    const book = this.servableBook(table?.book, bookId);
    // A reflowable EPUB has no page images: its pageCount counts reading positions (DECISIONS.md §Books).
    if (book.epubLayout === 'reflowable' || !table) return [];
    return [...table.pages.values()].map((page) => {
      const rendered = page.width === null ? renderedPdfSize(page.locator as PageLocator) : null;
      return {
        number: page.number,
        fileName: page.fileName,
        mediaType: page.mediaType,
        width: page.width ?? rendered?.width ?? null,
        height: page.height ?? rendered?.height ?? null,
        size: page.size,
      };
    });
  }

  async image(viewer: Viewer, ask: PageAsk): Promise<MediaResponse> {
    return this.imageFrom(await this.table(viewer, ask.bookId, ask.request.origin), viewer, ask);
  }

  /**
   * A page once `accept` has seen the book's paging facts (OPDS-PSE refuses a page past the end before
   * serving it, and moves progress with them): one page-table read for both. 404 when the viewer cannot
   * see the book, whatever `accept` says.
   */
  async imageWithPaging(
    viewer: Viewer,
    ask: PageAsk,
    accept: (paging: BookPaging) => void,
  ): Promise<{ media: MediaResponse; paging: BookPaging }> {
    const table = await this.table(viewer, ask.bookId, ask.request.origin);
    if (!table) throw notFound(`Book ${ask.bookId}`);
    const { id, pageCount, fileFormat, epubLayout } = table.book;
    const paging: BookPaging = { id, pageCount, fileFormat, epubLayout };
    try {
      accept(paging);
    } catch (error) {
      if (!(await table.visible)) throw notFound(`Book ${ask.bookId}`);
      throw error;
    }
    return { media: await this.imageFrom(table, viewer, ask), paging };
  }

  /**
   * The page, read while the viewer's access to a kept table is checked: handed out only once the check says
   * yes; otherwise whatever was read is dropped unsent and the answer is the 404 of a book that is not there.
   */
  private async imageFrom(table: PageTable | null, viewer: Viewer, ask: PageAsk): Promise<MediaResponse> {
    const [visible, answer] = await Promise.allSettled([
      table?.visible ?? Promise.resolve(true),
      this.servedFrom(table, viewer, ask),
    ]);
    if (visible.status === 'rejected' || !visible.value) {
      if (answer.status === 'fulfilled') await discard(answer.value);
      if (visible.status === 'rejected') throw visible.reason;
      throw notFound(`Book ${ask.bookId}`);
    }
    if (answer.status === 'rejected') throw answer.reason;
    return answer.value;
  }

  private async servedFrom(table: PageTable | null, viewer: Viewer, ask: PageAsk): Promise<MediaResponse> {
    try {
      return await this.serve(table, ask);
    } catch (error) {
      // The kept book is older than its file: read it again, a rescan may have caught up since.
      if (!(table?.cached && error instanceof FileChangedSinceScan)) throw error;
      return this.serve(await this.table(viewer, ask.bookId, ask.request.origin, true), ask);
    }
  }

  private async serve(table: PageTable | null, ask: PageAsk): Promise<MediaResponse> {
    const { bookId, pageNumber, variant, request } = ask;
    const book = this.servableBook(table?.book, bookId);
    if (book.epubLayout === 'reflowable') {
      throw new AppError(
        'UnprocessableEntity',
        'This EPUB is reflowable text and has no page images; read the book file itself with GET /books/{id}/file',
      );
    }
    const page = table?.pages.get(pageNumber);
    if (!page) {
      throw new AppError('NotFound', `Page ${pageNumber} not found: the book has ${book.pageCount} pages`);
    }
    const etag = pageEtag(book.etag, pageNumber, variant);
    const headers = { ETag: etag, 'Cache-Control': PAGE_CACHE_CONTROL };
    if (ifNoneMatchHits(request.ifNoneMatch, etag)) return notModified(headers);
    const stored: StoredPage = {
      bookPath: book.path,
      fileSize: book.fileSize,
      format: book.fileFormat,
      containerIndex: book.containerIndex as StoredPage['containerIndex'],
      pageNumber,
      mediaType: page.mediaType,
      locator: page.locator as PageLocator,
      etag: book.etag,
    };
    try {
      if (await this.isOriginal(stored, page, variant))
        return await this.original(book, stored, headers, request.origin);
      return await this.rendition(book, stored, variant, headers, request.origin);
    } catch (error) {
      if (error instanceof BookAnalysisError) throw fromAnalysisError(error);
      if (error instanceof ImageRenderError) throw toAppError(error);
      throw error;
    }
  }

  private async isOriginal(stored: StoredPage, page: MediaPage, variant: PageVariant): Promise<boolean> {
    if (needsRendering(stored.locator)) return false;
    if (isOriginalRequest(variant)) return true;
    // Only known sizes can prove that no resize is needed; before the dimensions pass, read the header.
    const size =
      page.width !== null && page.height !== null
        ? { width: page.width, height: page.height }
        : await readStoredPageSize(this.deps.library, stored);
    return size !== null && !needsTransform({ mediaType: page.mediaType, ...size }, variant);
  }

  private async original(
    book: MediaBook,
    stored: StoredPage,
    headers: Record<string, string>,
    origin: string,
  ): Promise<MediaResponse> {
    const { edgeCache } = this.deps;
    const key = edgeCache && book.etag ? originalPageCacheKey(origin, book.id, book.etag, stored.pageNumber) : null;
    const hit = key && edgeCache ? await edgeCache.match(key) : null;
    if (hit) {
      return {
        status: 200,
        headers: {
          ...headers,
          'Content-Type': hit.mediaType,
          'Content-Length': String(hit.size),
          'X-Longbox-Cache': 'hit',
        },
        body: hit.body,
      };
    }
    const bytes = await openStoredPage(this.deps.library, null, stored);
    if (bytes.kind !== 'stream') throw new Error('a stored page without a renderer cannot be rendered');
    // The page's type as the dimensions pass found it in its bytes (a `.png` holding a JPEG is a JPEG).
    const sized: Record<string, string> = { ...headers, 'Content-Type': stored.mediaType };
    if (bytes.size !== null) sized['Content-Length'] = String(bytes.size);
    let body = bytes.stream;
    if (key && edgeCache && bytes.size !== null && bytes.size <= MAX_EDGE_CACHED_PAGE_BYTES) {
      // One read from R2 feeds both the reader and the cache; the branch the slower side has not read
      // yet is buffered, at most one page.
      const [served, kept] = bytes.stream.tee();
      body = served;
      const size = bytes.size;
      this.deps.defer(() => edgeCache.put(key, { body: kept, size, mediaType: stored.mediaType }), {
        dropped: () => void kept.cancel(),
      });
      sized['X-Longbox-Cache'] = 'miss';
    }
    return { status: 200, headers: sized, body };
  }

  private async rendition(
    book: MediaBook,
    stored: StoredPage,
    variant: PageVariant,
    headers: Record<string, string>,
    origin: string,
  ): Promise<MediaResponse> {
    const { edgeCache, defer } = this.deps;
    const edgeKey =
      edgeCache && book.etag
        ? renditionEdgeCacheKey(origin, book.id, book.etag, stored.pageNumber, renditionName(variant))
        : null;
    const near = edgeKey && edgeCache ? await edgeCache.match(edgeKey) : null;
    if (near) {
      return {
        status: 200,
        headers: {
          ...headers,
          'Content-Type': near.mediaType,
          'Content-Length': String(near.size),
          'X-Longbox-Cache': 'hit',
        },
        body: near.body,
      };
    }
    const key = renditionCacheKey(book.id, book.etag, stored.pageNumber, variant);
    const cached = await this.deps.cache.get(key);
    if (cached) {
      const mediaType = cached.httpMetadata?.contentType ?? 'application/octet-stream';
      let body: ReadableStream<Uint8Array> = cached.body;
      if (edgeKey && edgeCache && cached.size <= MAX_EDGE_CACHED_PAGE_BYTES) {
        const [served, kept] = cached.body.tee();
        body = served;
        defer(() => edgeCache.put(edgeKey, { body: kept, size: cached.size, mediaType }), {
          dropped: () => void kept.cancel(),
        });
      }
      return {
        status: 200,
        headers: {
          ...headers,
          'Content-Type': mediaType,
          'Content-Length': String(cached.size),
          'X-Longbox-Cache': 'hit',
        },
        body,
      };
    }
    if (!this.deps.renderer) {
      throw new AppError('ServiceUnavailable', 'No image renderer is configured; request the page without parameters');
    }
    const options = {
      width: variant.width,
      height: variant.height,
      format: outputFormatFor(stored.mediaType, variant),
    };
    const image = await renderPage(this.deps.library, this.deps.renderer, stored, options);
    const bytes = new Uint8Array(image.bytes);
    // Kept after the answer (issue 30): a put that fails costs the next request a new rendering, never a wrong
    // page; the failure is logged.
    defer(() => this.deps.cache.put(key, bytes, { httpMetadata: { contentType: image.mediaType } }));
    if (edgeKey && edgeCache && bytes.byteLength <= MAX_EDGE_CACHED_PAGE_BYTES) {
      defer(() => edgeCache.put(edgeKey, { body: bytes, size: bytes.byteLength, mediaType: image.mediaType }));
    }
    return {
      status: 200,
      headers: {
        ...headers,
        'Content-Type': image.mediaType,
        'Content-Length': String(bytes.byteLength),
        'X-Longbox-Cache': 'miss',
      },
      body: image.bytes,
    };
  }
}

/** Drops an answer that will not be sent: its body, if it streams, is cancelled unread. */
async function discard(media: MediaResponse): Promise<void> {
  if (media.body instanceof ReadableStream) await media.body.cancel().catch(() => {});
}
