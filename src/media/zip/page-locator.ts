/**
 * Page locators for images inside a ZIP (CBZ pages and EPUB page images): everything needed to
 * stream the entry later without re-reading the central directory.
 */
import type { BookPage, ImageDimensions, PageContent, PageLocator } from '../container';
import { BookAnalysisError } from '../errors';
import { HEADER_SCAN_LIMIT, parseImageHeader, readImageHeader } from '../image-header';
import { imageMediaType } from '../image-types';
import type { RangeReader } from '../range-reader';
import type { ZipEntry } from './directory';
import { assertReadableEntry, openEntryStream, readStoredEntryPrefix, type ZipEntryRef } from './entry';

/** ZIP compression method 0: the entry's bytes are the file's bytes. */
const STORED = 0;

/** Compressed bytes fetched for the first look at a page header; most headers fit. */
const FIRST_HEADER_WINDOW = 64 * 1024;

/** An image entry as the book page at this 0-based index (CBZ pages, EPUB page images and covers). */
export function zipPage(entry: ZipEntry, index: number): BookPage {
  return {
    number: index + 1,
    fileName: entry.name,
    mediaType: imageMediaType(entry.name)!,
    size: entry.size,
    locator: zipLocator(entry),
  };
}

export function zipLocator(entry: ZipEntry): PageLocator {
  return {
    kind: 'zip',
    name: entry.name,
    offset: entry.offset,
    method: entry.method,
    compressedSize: entry.compressedSize,
    size: entry.size,
    crc32: entry.crc32,
    headerHint: entry.headerHint,
  };
}

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;

export function zipEntryRef(locator: PageLocator): ZipEntryRef {
  const { kind, name, offset, method, compressedSize, size, crc32, headerHint } = locator;
  if (
    kind !== 'zip' ||
    typeof name !== 'string' ||
    ![offset, method, compressedSize, size, crc32, headerHint].every(isCount)
  ) {
    throw new BookAnalysisError('page_not_found', 'The page index of this book is not valid; analyse the book again');
  }
  return { name, offset, method, compressedSize, size, crc32, headerHint } as ZipEntryRef;
}

export async function openZipPage(reader: RangeReader, locator: PageLocator): Promise<PageContent> {
  const entry = zipEntryRef(locator);
  return {
    stream: await openEntryStream(reader, entry),
    size: entry.size,
    mediaType: imageMediaType(entry.name) ?? 'application/octet-stream',
  };
}

/** Dimensions from a window of the entry: 64 KiB of compressed data, then up to 512 KiB if needed. */
export async function readZipPageHeader(reader: RangeReader, locator: PageLocator): Promise<ImageDimensions | null> {
  const entry = zipEntryRef(locator);
  assertReadableEntry(entry);
  for (const window of [FIRST_HEADER_WINDOW, HEADER_SCAN_LIMIT]) {
    const compressedSize = Math.min(entry.compressedSize, window);
    if (entry.method === STORED) {
      // Most comic pages are stored: their header is plain bytes at a known place, no stream needed.
      const result = parseImageHeader(await readStoredEntryPrefix(reader, entry, compressedSize));
      if (result !== 'need-more') return result;
      if (compressedSize === entry.compressedSize) return null;
      continue;
    }
    const result = await readImageHeader(await openEntryStream(reader, { ...entry, compressedSize }));
    if (result !== 'need-more') return result;
    if (compressedSize === entry.compressedSize) return null;
  }
  return null;
}
