/**
 * Thumbnails (issue 3 point 7): a book's is its cover (page 1 unless the file names another) with the
 * longest side at `thumbnails.max_size` (400 px), rendered by the native-image worker and stored once
 * in the CACHE bucket; a series shows its first book's in reading order, a library its first series'.
 */
import type { Database } from '../db/client';
import type { EventPublisher } from '../events/events';
import type { PageLocator } from '../media/container';
import type { RendererClient } from '../media/image-renderer';
import { openStoredPage } from '../storage/page-source';
import { type BookRow, CatalogWriter } from '../repositories/catalog-writer.repository';
import { CoversRepository } from '../repositories/covers.repository';
import type { PageImage } from '../scanning/book-details';
import { bookThumbnailKey } from '../storage/cache-keys';

/** The page a thumbnail is made from when the book names no cover: its first. */
export interface FirstPage {
  number: number;
  mediaType: string;
  locator: PageLocator;
}

/** Renders and stores one book's thumbnail; returns false when the book has no image to show. */
export async function generateBookThumbnail(
  db: Database,
  env: Env,
  renderer: RendererClient,
  book: BookRow,
  maxSide: number,
): Promise<boolean> {
  const covers = new CoversRepository(db);
  const firstPage = await covers.firstPage(book.id);
  const key = await renderBookThumbnail(env, renderer, book, firstPage as FirstPage | undefined, maxSide);
  if (!key) return false;
  await new CatalogWriter(db).thumbnailRecorded(book.id, key, new Date().toISOString());
  return true;
}

/**
 * Renders a book's thumbnail into the CACHE bucket and returns its key (null: no image to show);
 * recording it on the book is the caller's (CatalogWriter#thumbnailRecorded), so many books can be recorded at once.
 * `cover`: the cover's bytes when the caller already read them (the consumers' one read of the file);
 * otherwise the cover is read here.
 */
export async function renderBookThumbnail(
  env: Env,
  renderer: RendererClient,
  book: BookRow,
  firstPage: FirstPage | undefined,
  maxSide: number,
  cover?: PageImage,
): Promise<string | null> {
  const image = cover
    ? await renderer.thumbnail(cover.bytes, cover.mediaType, maxSide)
    : await renderStoredCover(env, renderer, book, firstPage, maxSide);
  if (!image) return null;
  const key = bookThumbnailKey(book.id);
  await env.CACHE.put(key, image.bytes, { httpMetadata: { contentType: image.mediaType } });
  return key;
}

/** The page a book's thumbnail is made from: the cover the file names, else its first page. */
export const coverLocatorOf = (book: BookRow, firstPage: FirstPage | undefined): PageLocator | undefined =>
  (book.coverLocator as PageLocator | null) ?? firstPage?.locator;

async function renderStoredCover(
  env: Env,
  renderer: RendererClient,
  book: BookRow,
  firstPage: FirstPage | undefined,
  maxSide: number,
) {
  const locator = coverLocatorOf(book, firstPage);
  if (!locator) return null;
  const page = await openStoredPage(env.LIBRARY, renderer, {
    bookPath: book.path,
    fileSize: book.fileSize,
    format: book.fileFormat,
    containerIndex: book.containerIndex as never,
    pageNumber: firstPage?.number ?? 1,
    mediaType: firstPage?.mediaType ?? 'application/octet-stream',
    locator,
    // Reads only the file the index was built from: a replaced, not yet rescanned file fails cleanly.
    etag: book.etag,
  });
  return page.kind === 'stream'
    ? renderer.thumbnail(page.stream, page.mediaType, maxSide)
    : renderer.thumbnail(page.image.bytes, page.image.mediaType, maxSide);
}

/** Points a series (and its library, if it has none) at its first book's thumbnail (reading order). */
export async function refreshSeriesThumbnail(db: Database, events: EventPublisher, seriesId: string): Promise<void> {
  const covers = new CoversRepository(db);
  const [first, current] = await Promise.all([covers.seriesCoverBook(seriesId), covers.series(seriesId)]);
  if (!first?.key || !current || current.hasCustomCover) return;
  const now = new Date().toISOString();
  if (current.thumbnailKey !== first.key || !current.thumbnailUpdatedAt) {
    await covers.pointSeriesAt(seriesId, first.key, now);
  }
  events.publish({ type: 'cover_updated', entity_type: 'series', entity_id: seriesId, library_id: first.libraryId });
  if (await covers.pointLibraryWithoutCoverAt(first.libraryId, first.key, now)) {
    const libraryId = first.libraryId;
    events.publish({ type: 'cover_updated', entity_type: 'library', entity_id: libraryId, library_id: libraryId });
  }
}
