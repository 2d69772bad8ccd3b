/**
 * CBR: a RAR (1.5–4.x or 5) of page images (DECISIONS.md §Books). Analysis builds the header index
 * from small range reads (RAR5 quick-open record when present), pages are the image entries in
 * natural order, metadata comes from ComicInfo.xml. Stored pages are served with one range read;
 * compressed ones through unrar (src/media/rar/).
 */
import { COMIC_INFO_MAX_SIZE, comicInfoFields, parseComicInfo } from './comic-info';
import type { BookAnalysis, BookContainer, BookPage } from './container';
import { BookAnalysisError } from './errors';
import { imageMediaType, isIgnoredEntry, isPageEntry } from './image-types';
import { naturalSort } from './natural-sort';
import type { RangeReader } from './range-reader';
import type { RarEntry } from './rar/rar-entry';
import { encryptedArchive, multiVolumeArchive } from './rar/rar-errors';
import { readRarIndex } from './rar/rar-index';
import { parseRarLocator, rarLocator, solidContainerIndex } from './rar/rar-locator';
import { assertStoredSizes, openRarPage, readRarEntry, readRarPageHeader } from './rar/rar-pages';
import {
  assertDecodable,
  chainOf,
  type DecompressionPlan,
  isPacked,
  planDecompression,
  toPackedEntry,
} from './rar/solid-plan';

/** ComicInfo.xml at the root wins; otherwise the shallowest one in a folder (as for CBZ). */
function findComicInfo(files: RarEntry[]): RarEntry | undefined {
  const candidates = files.filter((entry) => !isIgnoredEntry(entry.name) && /(^|\/)comicinfo\.xml$/i.test(entry.name));
  return candidates.sort((a, b) => a.name.split('/').length - b.name.split('/').length)[0];
}

/** The locator of an entry, after checking it can be served; chains of one entry need no index. */
function locate(plan: DecompressionPlan, entry: RarEntry) {
  if (!isPacked(entry)) {
    assertStoredSizes(entry);
    return rarLocator(plan.format, entry, null);
  }
  assertDecodable(plan, entry);
  const [start, end] = chainOf(plan, entry);
  return rarLocator(plan.format, entry, end > start ? [start, end] : null);
}

async function readComicInfo(reader: RangeReader, plan: DecompressionPlan, entry: RarEntry | undefined) {
  if (!entry || entry.unpackedSize > COMIC_INFO_MAX_SIZE) return null;
  try {
    const locator = locate(plan, entry);
    const containerIndex = solidContainerIndex(plan.format, plan.packed.map(toPackedEntry));
    return parseComicInfo(await readRarEntry(reader, parseRarLocator(locator), containerIndex));
  } catch (error) {
    // Damaged, oversized or undecodable metadata must not cost the user a readable book.
    if (error instanceof BookAnalysisError) return null;
    throw error;
  }
}

async function analyze(reader: RangeReader): Promise<BookAnalysis> {
  const index = await readRarIndex(reader);
  const files = index.entries.filter((entry) => !entry.directory);
  if (files.some((entry) => entry.encrypted)) throw encryptedArchive();
  if (files.some((entry) => entry.split)) throw multiVolumeArchive();
  const images = naturalSort(
    files.filter((entry) => !entry.redirect && isPageEntry(entry.name)),
    (entry) => entry.name,
  );
  if (images.length === 0) throw new BookAnalysisError('no_pages', 'The RAR archive has no image pages');

  const plan = planDecompression(index);
  const pages: BookPage[] = images.map((entry, i) => ({
    number: i + 1,
    fileName: entry.name,
    mediaType: imageMediaType(entry.name)!,
    size: entry.unpackedSize,
    locator: locate(plan, entry),
  }));
  const comicInfo = await readComicInfo(reader, plan, findComicInfo(files));
  const needsIndex = pages.some((page) => page.locator.chain !== null);
  return {
    format: 'cbr',
    pages,
    pageCount: pages.length,
    ...comicInfoFields(comicInfo, pages.length),
    containerIndex: needsIndex ? solidContainerIndex(plan.format, plan.packed.map(toPackedEntry)) : null,
  };
}

export const cbrContainer: BookContainer = {
  format: 'cbr',
  analyze,
  openPage: (reader, locator, containerIndex) => openRarPage(reader, locator, containerIndex),
  readPageHeader: (reader, locator, containerIndex) => readRarPageHeader(reader, locator, containerIndex),
};
