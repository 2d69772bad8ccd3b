/**
 * CBZ: a ZIP of page images (DECISIONS.md §Books). Pages are the image entries in natural order;
 * metadata comes from ComicInfo.xml when present. Listing costs one or two range reads, ComicInfo one more.
 */
import { COMIC_INFO_MAX_SIZE, comicInfoFields, parseComicInfo } from './comic-info';
import type { BookAnalysis, BookContainer, BookPage } from './container';
import { BookAnalysisError } from './errors';
import { isIgnoredEntry, isPageEntry } from './image-types';
import { naturalSort } from './natural-sort';
import type { RangeReader } from './range-reader';
import { readBookZip } from './zip/book-zip';
import type { ZipEntry } from './zip/directory';
import { assertReadableEntry, readEntryBytes } from './zip/entry';
import { openZipPage, readZipPageHeader, zipPage } from './zip/page-locator';

/** ComicInfo.xml at the root wins; otherwise the shallowest one in a folder (some packers nest everything). */
function findComicInfo(entries: ZipEntry[]): ZipEntry | undefined {
  const candidates = entries.filter(
    (entry) => !entry.directory && !isIgnoredEntry(entry.name) && /(^|\/)comicinfo\.xml$/i.test(entry.name),
  );
  return candidates.sort((a, b) => a.name.split('/').length - b.name.split('/').length)[0];
}

async function readComicInfo(reader: RangeReader, entry: ZipEntry | undefined) {
  if (!entry || entry.encrypted) return null;
  try {
    return parseComicInfo(await readEntryBytes(reader, entry, COMIC_INFO_MAX_SIZE));
  } catch (error) {
    // Damaged or oversized metadata must not cost the user a readable book.
    if (error instanceof BookAnalysisError) return null;
    throw error;
  }
}

export function pagesFromEntries(entries: ZipEntry[]): BookPage[] {
  const images = naturalSort(
    entries.filter((entry) => !entry.directory && isPageEntry(entry.name)),
    (entry) => entry.name,
  );
  for (const entry of images) assertReadableEntry(entry);
  return images.map(zipPage);
}

async function analyze(reader: RangeReader): Promise<BookAnalysis> {
  const entries = await readBookZip(reader, 'cbz');
  const pages = pagesFromEntries(entries);
  if (pages.length === 0) {
    if (entries.some((entry) => entry.encrypted)) assertReadableEntry(entries.find((entry) => entry.encrypted)!);
    throw new BookAnalysisError('no_pages', 'The archive has no image pages');
  }
  const comicInfo = await readComicInfo(reader, findComicInfo(entries));
  return {
    format: 'cbz',
    pages,
    pageCount: pages.length,
    ...comicInfoFields(comicInfo, pages.length),
    containerIndex: null,
  };
}

export const cbzContainer: BookContainer = {
  format: 'cbz',
  analyze,
  openPage: (reader, locator) => openZipPage(reader, locator),
  readPageHeader: (reader, locator) => readZipPageHeader(reader, locator),
};
