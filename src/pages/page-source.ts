/**
 * The bytes of one book page as stored in the file: one R2 range read of the entry (inflated when
 * needed), through the book's format container. PDF pages that are not a single embedded JPEG are
 * rendered by the native-image worker instead.
 */
import { containerFor } from '../media';
import type { BookFormat, JsonValue, PageLocator } from '../media/container';
import { isBookAnalysisError } from '../media/errors';
import type { RendererClient, RenderedImage } from '../media/image-renderer';
import { r2RangeReader } from '../media/range-reader';

export interface StoredPage {
  bookPath: string;
  fileSize: number;
  format: BookFormat;
  containerIndex: JsonValue | null;
  pageNumber: number;
  mediaType: string;
  locator: PageLocator;
}

export type PageBytes =
  | { kind: 'stream'; stream: ReadableStream<Uint8Array>; size: number | null; mediaType: string }
  | { kind: 'rendered'; image: RenderedImage };

/** Longest side of a rendered PDF page when the client asked for the original. */
export const PDF_RENDER_MAX_SIDE = 2000;

export async function openStoredPage(
  bucket: R2Bucket,
  renderer: RendererClient | null,
  page: StoredPage,
): Promise<PageBytes> {
  const reader = await r2RangeReader(bucket, page.bookPath, page.fileSize);
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
