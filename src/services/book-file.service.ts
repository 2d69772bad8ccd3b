/**
 * `GET /books/{id}/file` (DECISIONS.md §Storage, Download): the original file streamed from R2 as an
 * attachment, with its R2 ETag, Last-Modified and byte ranges, so reader apps can read an EPUB or
 * resume a download without the server ever holding the file. The object is looked up first (HEAD)
 * so that ranges are checked against its real size and the body read is pinned to the same version.
 */
import { AppError, notFound } from '../lib/errors';
import type { BookFormat } from '../media/container';
import { contentRange, ifRangeAllows, parseByteRange } from '../pages/byte-range';
import { attachmentDisposition } from '../pages/content-disposition';
import { ifNoneMatchHits, type MediaResponse, notModified, REVALIDATE_CACHE_CONTROL } from '../pages/media-response';
import type { BookMediaRepository } from '../repositories/book-media.repository';
import type { Viewer } from '../repositories/visibility';

export const BOOK_FILE_MEDIA_TYPES: Record<BookFormat, string> = {
  cbz: 'application/vnd.comicbook+zip',
  cbr: 'application/vnd.comicbook-rar',
  epub: 'application/epub+zip',
  pdf: 'application/pdf',
};

export interface FileRequest {
  method: string;
  range?: string | undefined;
  ifRange?: string | undefined;
  ifNoneMatch?: string | undefined;
}

export class BookFileService {
  constructor(
    private readonly repo: BookMediaRepository,
    private readonly library: R2Bucket,
  ) {}

  async download(viewer: Viewer, bookId: string, request: FileRequest): Promise<MediaResponse> {
    const book = await this.repo.book(viewer, bookId);
    if (!book || book.deletedAt) throw notFound(`Book ${bookId}`);
    const head = await this.library.head(book.path);
    if (!head) throw new AppError('NotFound', 'The book file is no longer in storage; scan the library again');
    const headers: Record<string, string> = {
      ETag: head.httpEtag,
      'Last-Modified': head.uploaded.toUTCString(),
      'Cache-Control': REVALIDATE_CACHE_CONTROL,
      'Accept-Ranges': 'bytes',
      'Content-Type': BOOK_FILE_MEDIA_TYPES[book.fileFormat],
      'Content-Disposition': attachmentDisposition(book.fileName),
    };
    if (ifNoneMatchHits(request.ifNoneMatch, head.httpEtag)) return notModified(headers);
    const range = ifRangeAllows(request.ifRange, head.httpEtag, head.uploaded)
      ? parseByteRange(request.range, head.size)
      : ({ kind: 'whole' } as const);
    if (range.kind === 'unsatisfiable') {
      return {
        status: 416,
        headers: {
          'Content-Type': 'application/json',
          'Accept-Ranges': 'bytes',
          'Content-Range': `bytes */${head.size}`,
        },
        // The envelope's kind list has no 416: BadRequest is the kind of every other refused request.
        body: JSON.stringify({
          error: 'BadRequest',
          message: `The requested range is outside the file (${head.size} bytes)`,
          details: null,
        }),
      };
    }
    const partial = range.kind === 'partial';
    const length = partial ? range.length : head.size;
    const sized: Record<string, string> = { ...headers, 'Content-Length': String(length) };
    if (partial) sized['Content-Range'] = contentRange(range.offset, range.length, head.size);
    const status = partial ? 206 : 200;
    if (request.method === 'HEAD') return { status, headers: sized, body: null };
    const object = await this.library.get(book.path, {
      onlyIf: { etagMatches: head.etag },
      ...(partial ? { range: { offset: range.offset, length: range.length } } : {}),
    });
    if (!object) throw new AppError('NotFound', 'The book file is no longer in storage; scan the library again');
    if (!('body' in object)) throw new AppError('Conflict', 'The book file changed while it was being read; try again');
    return { status, headers: sized, body: object.body };
  }
}
