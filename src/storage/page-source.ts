/**
 * The bytes of one book page as stored in the file: one R2 range read of the entry (inflated when
 * needed), through the book's format container. PDF pages that are not a single embedded JPEG are
 * rendered by the native-image worker instead. `renderPage` produces a resized or transcoded copy.
 */
import { containerFor } from '../media';
import type { BookFormat, ImageDimensions, JsonValue, PageLocator } from '../media/container';
import { isBookAnalysisError } from '../media/errors';
import type { RendererClient, RenderedImage, TransformOptions } from '../media/image-renderer';
import { r2RangeReader } from '../media/range-reader';
import { AppError } from '../lib/errors';
import { openZipPageDirect } from './zip-page-direct';

export interface StoredPage {
  bookPath: string;
  fileSize: number;
  format: BookFormat;
  containerIndex: JsonValue | null;
  pageNumber: number;
  mediaType: string;
  locator: PageLocator;
  /**
   * The R2 etag the book was analysed at. When given, every read is conditional on it, so a file
   * replaced since the scan is refused instead of being read at offsets that belong to the old one.
   */
  etag?: string;
}

export type PageBytes =
  | { kind: 'stream'; stream: ReadableStream<Uint8Array>; size: number | null; mediaType: string }
  | { kind: 'rendered'; image: RenderedImage };

/** Longest side of a rendered PDF page when the client asked for the original. */
export const PDF_RENDER_MAX_SIDE = 2000;

/** The object's etag moved on since the scan: the stored page index may point at the wrong bytes. */
export class FileChangedSinceScan extends AppError {
  constructor() {
    super('Conflict', 'The book file changed since the library was last scanned; scan the library again');
  }
}

export const fileChangedSinceScan = () => new FileChangedSinceScan();

/** The bucket as seen by one page read: gets only succeed while the object still has `etag`. */
function pinnedTo(bucket: R2Bucket, etag: string): R2Bucket {
  const pinned: Pick<R2Bucket, 'get'> = {
    async get(key: string, options?: R2GetOptions) {
      const object = await bucket.get(key, { ...options, onlyIf: { etagMatches: etag } });
      if (object && !('body' in object)) throw fileChangedSinceScan();
      return object as R2ObjectBody | null;
    },
  } as Pick<R2Bucket, 'get'>;
  return pinned as R2Bucket;
}

function readerFor(bucket: R2Bucket, page: StoredPage) {
  return storedBookReader(bucket, page.bookPath, page.fileSize, page.etag);
}

/**
 * Range reads of a book file as the scan recorded it: with `etag`, every read is conditional on it, so a file
 * replaced since fails (FileChangedSinceScan) rather than being read at offsets that belong to the old one.
 */
export function storedBookReader(bucket: R2Bucket, path: string, size: number, etag?: string) {
  return r2RangeReader(etag ? pinnedTo(bucket, etag) : bucket, path, size);
}

export async function openStoredPage(
  bucket: R2Bucket,
  renderer: RendererClient | null,
  page: StoredPage,
): Promise<PageBytes> {
  if (page.etag) {
    const direct = await openZipPageDirect(bucket, page.bookPath, page.fileSize, page.etag, page.locator);
    if (direct === 'changed') throw fileChangedSinceScan();
    if (direct) return { kind: 'stream', ...direct };
  }
  const reader = await readerFor(bucket, page);
  try {
    const content = await containerFor(page.format).openPage(reader, page.locator, page.containerIndex);
    return { kind: 'stream', stream: content.stream, size: content.size, mediaType: content.mediaType };
  } catch (error) {
    if (!(isBookAnalysisError(error) && error.code === 'render_required' && renderer)) throw error;
    const image = await renderer.renderPdfPage({
      key: page.bookPath,
      pageNumber: page.pageNumber,
      width: PDF_RENDER_MAX_SIDE,
      height: PDF_RENDER_MAX_SIDE,
      format: 'png',
    });
    return { kind: 'rendered', image };
  }
}

/** The page's pixel size from its first bytes (embedded PDF images: from the index, no read). */
export async function readStoredPageSize(bucket: R2Bucket, page: StoredPage): Promise<ImageDimensions | null> {
  const reader = await readerFor(bucket, page);
  return containerFor(page.format).readPageHeader(reader, page.locator, page.containerIndex);
}

/**
 * A resized and/or transcoded copy of the page: PDF pages without an embedded image are rendered
 * straight to the requested size; every other page is streamed from R2 into the renderer.
 */
export async function renderPage(
  bucket: R2Bucket,
  renderer: RendererClient,
  page: StoredPage,
  options: TransformOptions,
): Promise<RenderedImage> {
  if (page.locator.kind === 'pdf-render') {
    return renderer.renderPdfPage({ ...options, key: page.bookPath, pageNumber: page.pageNumber });
  }
  const source = await openStoredPage(bucket, null, page);
  if (source.kind === 'rendered') return source.image;
  return renderer.transform(source.stream, source.mediaType, options);
}
