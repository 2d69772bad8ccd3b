/**
 * A CBZ or CBR downloaded as a fixed-layout EPUB (src/media/comic-epub/; DECISIONS.md §Kobo e-readers, comics):
 * written on the fly from the archive's entries, never held whole (128 MB isolate). The layout — and so the
 * Content-Length — comes from the page index before the first byte, so the answer has a length, an ETag and
 * byte ranges like any file download (RFC 9110: a single range, If-Range, If-None-Match), and a resumed
 * download gets exactly the bytes it lacks.
 */
import { AppError } from '../lib/errors';
import type { JsonValue } from '../media/container';
import { comicEpubImages, epubRefusal, type IndexedPage } from '../media/comic-epub/comic-epub';
import { archiveImageReader } from '../media/comic-epub/archive-reader';
import { checksumOf } from '../media/comic-epub/image-sources';
import { type ComicEpubImage, comicEpubLayout } from '../media/comic-epub/layout';
import { type EpubBookInfo, MIMETYPE } from '../media/comic-epub/package-files';
import { comicEpubStream } from '../media/comic-epub/stream';
import { isBookAnalysisError } from '../media/errors';
import { contentRange, ifRangeAllows, parseByteRange } from '../pages/byte-range';
import { attachmentDisposition } from '../pages/content-disposition';
import { ifNoneMatchHits, type MediaResponse, notModified, REVALIDATE_CACHE_CONTROL } from '../pages/media-response';
import { storedBookReader } from '../storage/page-source';
import type { FileRequest } from './book-file.service';

/** Bumped when the bytes written for the same book change (the package files, the entry order). */
const LAYOUT_VERSION = 'e1';

/** The comic's file as the scan recorded it. */
export interface ComicFile {
  format: 'cbz' | 'cbr';
  path: string;
  size: number;
  etag: string;
  modifiedAt: string;
  containerIndex: unknown;
  /** The original's name; the EPUB is named after it. */
  fileName: string;
}

const unprocessable = (message: string) => new AppError('UnprocessableEntity', message);

export class ComicEpubService {
  constructor(private readonly library: R2Bucket) {}

  async download(
    file: ComicFile,
    info: EpubBookInfo,
    pages: readonly IndexedPage[],
    request: FileRequest,
  ): Promise<MediaResponse> {
    const refusal = epubRefusal(pages);
    if (refusal) throw unprocessable(`This comic cannot be read as an EPUB: ${refusal}`);
    const reader = await storedBookReader(this.library, file.path, file.size, file.etag);
    const containerIndex = (file.containerIndex ?? null) as JsonValue | null;
    let layout: ReturnType<typeof comicEpubLayout<ComicEpubImage>>;
    try {
      const images: ComicEpubImage[] = [];
      for (const image of comicEpubImages(file.format, pages)) {
        // A RAR5 archive with BLAKE2 hashes records no CRC-32: that image is read once to work it out.
        const crc32 = image.form.crc32 ?? (await checksumOf(reader, image.source, containerIndex));
        images.push({ ...image, form: { ...image.form, crc32 } });
      }
      layout = comicEpubLayout(info, images);
    } catch (error) {
      if (isBookAnalysisError(error)) throw unprocessable(`This comic cannot be read as an EPUB: ${error.message}`);
      throw error;
    }
    const etag = `"${file.etag}-${info.modified.getTime().toString(36)}-${LAYOUT_VERSION}"`;
    const modified = new Date(Math.max(Date.parse(file.modifiedAt), info.modified.getTime()));
    const headers: Record<string, string> = {
      ETag: etag,
      'Last-Modified': modified.toUTCString(),
      'Cache-Control': REVALIDATE_CACHE_CONTROL,
      'Accept-Ranges': 'bytes',
      'Content-Type': MIMETYPE,
      'Content-Disposition': attachmentDisposition(`${file.fileName.replace(/\.[^.]*$/, '')}.epub`),
    };
    if (ifNoneMatchHits(request.ifNoneMatch, etag)) return notModified(headers);
    const range = ifRangeAllows(request.ifRange, etag, modified)
      ? parseByteRange(request.range, layout.size)
      : ({ kind: 'whole' } as const);
    if (range.kind === 'unsatisfiable') {
      return {
        status: 416,
        headers: {
          'Content-Type': 'application/json',
          'Accept-Ranges': 'bytes',
          'Content-Range': `bytes */${layout.size}`,
        },
        body: JSON.stringify({
          error: 'BadRequest',
          message: `The requested range is outside the file (${layout.size} bytes)`,
          details: null,
        }),
      };
    }
    const span =
      range.kind === 'partial' ? { offset: range.offset, length: range.length } : { offset: 0, length: layout.size };
    const sized: Record<string, string> = { ...headers, 'Content-Length': String(span.length) };
    if (range.kind === 'partial') sized['Content-Range'] = contentRange(span.offset, span.length, layout.size);
    const status = range.kind === 'partial' ? 206 : 200;
    if (request.method === 'HEAD') return { status, headers: sized, body: null };
    const body = comicEpubStream(layout, span, archiveImageReader(reader, containerIndex));
    return { status, headers: sized, body };
  }
}
