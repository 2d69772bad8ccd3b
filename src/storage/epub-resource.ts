/**
 * One entry of an EPUB (Komga's `/resource/{path}`), by the Readium index stored at scan: one ranged R2 read
 * of its ZIP entry, pinned to the etag the book was scanned at, inflated while streaming when deflated.
 */
import { type ReadiumResource, resourceLocator } from '../media/epub/readium-index';
import { openStoredPage, type PageBytes } from './page-source';

export interface StoredBookFile {
  path: string;
  fileSize: number;
  etag: string;
}

export function openEpubResource(
  bucket: R2Bucket,
  book: StoredBookFile,
  resource: ReadiumResource,
): Promise<PageBytes> {
  return openStoredPage(bucket, null, {
    bookPath: book.path,
    fileSize: book.fileSize,
    format: 'epub',
    containerIndex: null,
    pageNumber: 0,
    mediaType: resource.mediaType,
    locator: resourceLocator(resource),
    etag: book.etag,
  });
}
