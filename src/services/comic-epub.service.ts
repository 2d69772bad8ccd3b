/**
 * A CBZ or CBR downloaded as a fixed-layout EPUB (src/media/comic-epub/; DECISIONS.md §Kobo e-readers, comics):
 * written on the fly from the archive's entries, never held whole (128 MB isolate). The layout — and so the
 * Content-Length — comes from the page index before the first byte, so the answer has a length, an ETag and
 * byte ranges like any file download (RFC 9110: a single range, If-Range, If-None-Match), and a resumed
 * download gets exactly the bytes it lacks.
 */
import { AppError } from '../lib/errors';
import type { JsonValue } from '../media/container';
import { comicEpubImages, epubRefusal, type IndexedPage, type PageFit } from '../media/comic-epub/comic-epub';
import { archiveImageReader, type ImageReader } from '../media/comic-epub/archive-reader';
import { crc32 } from '../media/crc32';
import { mapLimited } from '../lib/concurrency';
import { checksumOf } from '../media/comic-epub/image-sources';
import { type ComicEpubImage, comicEpubLayout } from '../media/comic-epub/layout';
import { type EpubBookInfo, MIMETYPE } from '../media/comic-epub/package-files';
import { comicEpubStream } from '../media/comic-epub/stream';
import { isBookAnalysisError } from '../media/errors';
import { contentRange, ifRangeAllows, parseByteRange } from '../pages/byte-range';
import {
  downloadHeaders,
  ifNoneMatchHits,
  type MediaResponse,
  notModified,
  rangeNotSatisfiable,
} from '../pages/media-response';
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

/** Pages fitted to a device's screen (LONGBOX_KOBO__PAGE_SIZE): the box, and how a page is redrawn within it. */
export interface PageDrawing {
  fit: PageFit;
  /** Page `pageNumber` of the book within the box as JPEG (the API's page variant: rendered once, then kept). */
  draw(pageNumber: number): Promise<Uint8Array>;
}

/** Redrawn pages made at once while the layout is worked out (each is a renderer call the first time). */
const DRAWING_CONCURRENCY = 4;

const streamOf = (bytes: Uint8Array) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });

export class ComicEpubService {
  constructor(private readonly library: R2Bucket) {}

  /**
   * `drawing`: pages larger than a box, or in a type no EPUB shows, are redrawn within it. They are all drawn (or
   * found already drawn) before the first byte, so the layout and its length are still known in advance.
   */
  async download(
    file: ComicFile,
    info: EpubBookInfo,
    pages: readonly IndexedPage[],
    request: FileRequest,
    drawing: PageDrawing | null = null,
  ): Promise<MediaResponse> {
    const refusal = epubRefusal(pages, drawing?.fit ?? null);
    if (refusal) throw unprocessable(`This comic cannot be read as an EPUB: ${refusal}`);
    const reader = await storedBookReader(this.library, file.path, file.size, file.etag);
    const containerIndex = (file.containerIndex ?? null) as JsonValue | null;
    let layout: ReturnType<typeof comicEpubLayout<ComicEpubImage>>;
    try {
      const pending = comicEpubImages(file.format, pages, drawing?.fit ?? null);
      const images = await mapLimited(pending, DRAWING_CONCURRENCY, async (image): Promise<ComicEpubImage> => {
        if (image.redraw && drawing) {
          const bytes = await drawing.draw(image.redraw.sourcePage);
          const size = bytes.length;
          return { ...image, form: { ...image.form, crc32: crc32(bytes), compressedSize: size, size } };
        }
        // A RAR5 archive with BLAKE2 hashes records no CRC-32: that image is read once to work it out.
        return {
          ...image,
          form: { ...image.form, crc32: image.form.crc32 ?? (await checksumOf(reader, image.source, containerIndex)) },
        };
      });
      layout = comicEpubLayout(info, images);
    } catch (error) {
      if (isBookAnalysisError(error)) throw unprocessable(`This comic cannot be read as an EPUB: ${error.message}`);
      throw error;
    }
    const fitted = drawing ? `-${drawing.fit.width}x${drawing.fit.height}` : '';
    const etag = `"${file.etag}-${info.modified.getTime().toString(36)}-${LAYOUT_VERSION}${fitted}"`;
    const modified = new Date(Math.max(Date.parse(file.modifiedAt), info.modified.getTime()));
    const headers = downloadHeaders({
      etag,
      modified,
      mediaType: MIMETYPE,
      fileName: `${file.fileName.replace(/\.[^.]*$/, '')}.epub`,
    });
    if (ifNoneMatchHits(request.ifNoneMatch, etag)) return notModified(headers);
    const range = ifRangeAllows(request.ifRange, etag, modified)
      ? parseByteRange(request.range, layout.size)
      : ({ kind: 'whole' } as const);
    if (range.kind === 'unsatisfiable') return rangeNotSatisfiable(layout.size);
    const span =
      range.kind === 'partial' ? { offset: range.offset, length: range.length } : { offset: 0, length: layout.size };
    const sized: Record<string, string> = { ...headers, 'Content-Length': String(span.length) };
    if (range.kind === 'partial') sized['Content-Range'] = contentRange(span.offset, span.length, layout.size);
    const status = range.kind === 'partial' ? 206 : 200;
    if (request.method === 'HEAD') return { status, headers: sized, body: null };
    const archive = archiveImageReader(reader, containerIndex);
    const images: ImageReader = {
      // A redrawn page is drawn already: this finds it where it was kept.
      open: async (image) =>
        image.redraw && drawing ? streamOf(await drawing.draw(image.redraw.sourcePage)) : archive.open(image),
      close: () => archive.close(),
    };
    const body = comicEpubStream(layout, span, images);
    return { status, headers: sized, body };
  }
}
