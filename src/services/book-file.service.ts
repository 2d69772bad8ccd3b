/**
 * `GET /books/{id}/file` (DECISIONS.md §Storage, Download): the original file streamed from R2 as an
 * attachment, with its R2 ETag, Last-Modified and byte ranges, so reader apps can read an EPUB or
 * resume a download without the server ever holding the file.
 *
 * The web EPUB reader makes one Range request after another, so each costs at most one R2 read (issue 30): the
 * book's storage columns come from the page-table cache (pages/page-table-cache.ts: the isolate, then the data
 * center), the viewer's access to a kept book is checked while the bytes are read, and the answer is worked
 * out from the version the scan recorded (size, etag, upload time), with the bytes read pinned to that etag.
 * R2 returns the version it holds with the read, so an object replaced since the scan is noticed and the
 * request answered again from the real version (a second read, rarely).
 *
 * A range seen before comes from the data center's cache instead (pages/edge-page-cache.ts, DECISIONS.md §Far
 * readers, "File ranges at the edge"): a range of up to MAX_EDGE_CACHED_PAGE_BYTES read from the scanned version
 * is kept under the book, that version's etag and the span, and a later request for the same span of the same
 * version is answered from it with the headers a read would have had. Whole files are never kept.
 */
import type { Defer } from '../lib/deferred-work';
import { AppError, notFound } from '../lib/errors';
import type { BookFormat } from '../media/container';
import { contentRange, ifRangeAllows, parseByteRange } from '../pages/byte-range';
import { type EdgePageCache, fileRangeCacheKey, MAX_EDGE_CACHED_PAGE_BYTES } from '../pages/edge-page-cache';
import {
  downloadHeaders,
  ifNoneMatchHits,
  type MediaResponse,
  notModified,
  rangeNotSatisfiable,
} from '../pages/media-response';
import { pageTable, type PageTableStore } from '../pages/page-table-cache';
import type { BookMediaRepository, MediaBook } from '../repositories/book-media.repository';
import type { Viewer } from '../repositories/visibility';
import type { BookFileStore, FileSpan, FileVersion } from '../storage/book-file-store';

export const BOOK_FILE_MEDIA_TYPES: Record<BookFormat, string> = {
  cbz: 'application/vnd.comicbook+zip',
  cbr: 'application/vnd.comicbook-rar',
  epub: 'application/epub+zip',
  pdf: 'application/pdf',
};

export interface FileRequest {
  method: string;
  /** Where the data center's cache keeps book tables (the request's origin). */
  origin: string;
  range?: string | undefined;
  ifRange?: string | undefined;
  ifNoneMatch?: string | undefined;
}

/** What a request gets from one version of the file. */
type FileAnswer =
  | { kind: 'notModified' }
  | { kind: 'unsatisfiable' }
  /** `span` null: the whole file. */
  | { kind: 'bytes'; span: FileSpan | null };

function answerFor(request: FileRequest, version: FileVersion): FileAnswer {
  if (ifNoneMatchHits(request.ifNoneMatch, version.httpEtag)) return { kind: 'notModified' };
  if (!ifRangeAllows(request.ifRange, version.httpEtag, version.uploaded)) return { kind: 'bytes', span: null };
  const range = parseByteRange(request.range, version.size);
  if (range.kind === 'unsatisfiable') return range;
  return { kind: 'bytes', span: range.kind === 'partial' ? { offset: range.offset, length: range.length } : null };
}

const sameAnswer = (a: FileAnswer, b: FileAnswer) => JSON.stringify(a) === JSON.stringify(b);

const fileGone = () => new AppError('NotFound', 'The book file is no longer in storage; scan the library again');

/** A book's file as the scan recorded it. */
export interface StoredFile {
  /** The book's id: what its kept ranges are filed under. */
  id: string;
  path: string;
  fileName: string;
  fileFormat: BookFormat;
  fileSize: number;
  etag: string;
  fileModifiedAt: string;
}

/** The file as the response names it. */
interface ServedFile {
  path: string;
  fileName: string;
  mediaType: string;
}

export interface BookFileServiceDeps {
  repo: BookMediaRepository;
  files: BookFileStore;
  /** The data center's cache of book tables for a request's origin; null where there is none. */
  tableStore: (origin: string) => PageTableStore | null;
  /** Ranges of files near the reader (Workers Cache API); null where the runtime has none or it is off. */
  edgeCache: EdgePageCache | null;
  /** Runs work after the response (ctx.waitUntil). */
  defer: Defer;
}

export class BookFileService {
  constructor(private readonly deps: BookFileServiceDeps) {}

  /** `mediaTypes`: how the file is typed per format (the Komga API types it as Komga does). */
  async download(
    viewer: Viewer,
    bookId: string,
    request: FileRequest,
    mediaTypes: Record<BookFormat, string> = BOOK_FILE_MEDIA_TYPES,
  ): Promise<MediaResponse> {
    const { repo, tableStore, defer } = this.deps;
    const table = await pageTable(repo, viewer, bookId, { store: tableStore(request.origin), defer });
    if (!table) throw notFound(`Book ${bookId}`);
    // The bytes are read while a kept book's visibility is checked, and handed out only once it says yes.
    const [visible, answer] = await Promise.allSettled([table.visible, this.answer(table.book, request, mediaTypes)]);
    if (visible.status === 'rejected' || !visible.value) {
      if (answer.status === 'fulfilled' && answer.value.body instanceof ReadableStream) {
        await answer.value.body.cancel().catch(() => {});
      }
      if (visible.status === 'rejected') throw visible.reason;
      throw notFound(`Book ${bookId}`);
    }
    if (answer.status === 'rejected') throw answer.reason;
    return answer.value;
  }

  private async answer(
    book: MediaBook,
    request: FileRequest,
    mediaTypes: Record<BookFormat, string>,
  ): Promise<MediaResponse> {
    if (book.deletedAt) throw notFound(`Book ${book.id}`);
    return this.downloadOf(book, request, mediaTypes);
  }

  /** The download of a book whose file facts (the scanned version) the caller already read for a viewer. */
  async downloadOf(
    book: StoredFile,
    request: FileRequest,
    mediaTypes: Record<BookFormat, string> = BOOK_FILE_MEDIA_TYPES,
  ): Promise<MediaResponse> {
    const served: ServedFile = { path: book.path, fileName: book.fileName, mediaType: mediaTypes[book.fileFormat] };
    if (request.method !== 'HEAD') {
      const scanned: FileVersion = {
        size: book.fileSize,
        etag: book.etag,
        httpEtag: `"${book.etag}"`,
        uploaded: new Date(book.fileModifiedAt),
      };
      const expected = answerFor(request, scanned);
      if (expected.kind === 'bytes') {
        const key = this.edgeKeyOf(book, request.origin, expected.span);
        const kept = key ? await this.keptRange(key, expected.span) : null;
        if (kept) return this.respond(served, request, expected, scanned, kept, 'hit');
        const read = await this.deps.files.read(book.path, expected.span, book.etag);
        if (!read) throw fileGone();
        if (read.body && sameAnswer(expected, answerFor(request, read.version))) {
          // Pinned to the scanned etag, the bytes are that version's: what the key names.
          if (!key || !expected.span) return this.respond(served, request, expected, read.version, read.body);
          const body = this.keepWhileServing(key, read.body, expected.span.length, served.mediaType);
          return this.respond(served, request, expected, read.version, body, 'miss');
        }
        await read.body?.cancel();
        return this.answerFrom(served, request, read.version);
      }
    }
    // HEAD, 304 and 416 need no bytes: the object's version alone answers them.
    const version = await this.deps.files.version(book.path);
    if (!version) throw fileGone();
    return this.answerFrom(served, request, version);
  }

  /** Where the data center keeps this span of the scanned version; null when it is not kept (a whole file, a large span). */
  private edgeKeyOf(book: StoredFile, origin: string, span: FileSpan | null): string | null {
    if (!this.deps.edgeCache || !span || span.length > MAX_EDGE_CACHED_PAGE_BYTES) return null;
    return fileRangeCacheKey(origin, book.id, book.etag, span.offset, span.length);
  }

  /** The kept bytes of `span`, or null when nothing (or not exactly the span) is kept. */
  private async keptRange(key: string, span: FileSpan | null): Promise<ReadableStream<Uint8Array> | null> {
    const hit = await this.deps.edgeCache?.match(key);
    if (!hit) return null;
    if (hit.size === span?.length) return hit.body;
    await hit.body.cancel().catch(() => {});
    return null;
  }

  /**
   * One read from R2 feeds both the reader and the data center's cache, which keeps the span only if it arrives
   * whole; the branch the slower side has not read yet is buffered, at most MAX_EDGE_CACHED_PAGE_BYTES.
   */
  private keepWhileServing(
    key: string,
    body: ReadableStream<Uint8Array>,
    size: number,
    mediaType: string,
  ): ReadableStream<Uint8Array> {
    const { edgeCache, defer } = this.deps;
    if (!edgeCache) return body;
    const [served, kept] = body.tee();
    defer(() => edgeCache.put(key, { body: kept, size, mediaType }), { dropped: () => void kept.cancel() });
    return served;
  }

  /** The answer from the object's current `version`, reading its bytes pinned to it when they are sent. */
  private async answerFrom(book: ServedFile, request: FileRequest, version: FileVersion): Promise<MediaResponse> {
    const answer = answerFor(request, version);
    if (answer.kind !== 'bytes' || request.method === 'HEAD') {
      return this.respond(book, request, answer, version, null);
    }
    const read = await this.deps.files.read(book.path, answer.span, version.etag);
    if (!read) throw fileGone();
    if (!read.body) throw new AppError('Conflict', 'The book file changed while it was being read; try again');
    return this.respond(book, request, answer, read.version, read.body);
  }

  private respond(
    book: ServedFile,
    request: FileRequest,
    answer: FileAnswer,
    version: FileVersion,
    body: ReadableStream<Uint8Array> | null,
    /** Whether the bytes came from the data center's cache, for the ranges it keeps. */
    edgeCache?: 'hit' | 'miss',
  ): MediaResponse {
    const headers = downloadHeaders({
      etag: version.httpEtag,
      modified: version.uploaded,
      mediaType: book.mediaType,
      fileName: book.fileName,
    });
    if (answer.kind === 'notModified') return notModified(headers);
    if (answer.kind === 'unsatisfiable') return rangeNotSatisfiable(version.size);
    const { span } = answer;
    const sized: Record<string, string> = { ...headers, 'Content-Length': String(span ? span.length : version.size) };
    if (span) sized['Content-Range'] = contentRange(span.offset, span.length, version.size);
    if (edgeCache) sized['X-Longbox-Cache'] = edgeCache;
    const status = span ? 206 : 200;
    return { status, headers: sized, body: request.method === 'HEAD' ? null : body };
  }
}
