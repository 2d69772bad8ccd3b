/**
 * EPUB (DECISIONS.md §Books): container.xml → package document → metadata, spine and cover.
 * Picture books (fixed-layout or image-only) get one image page per spine item; reflowable books get
 * no image pages and a pageCount in Readium positions, and their cover image is kept in the
 * container index for thumbnails (`epubCoverImage`).
 */
import type { BookAnalysis, BookContainer, BookPage, JsonValue, PageLocator } from './container';
import { BookAnalysisError } from './errors';
import { type EntryLookup, readiumPositions, spineImages } from './epub/spine-pages';
import { type PackageDocument, readPackageDocument, rootfilePath } from './epub/package-document';
import { imageMediaType } from './image-types';
import type { RangeReader } from './range-reader';
import { buildReadiumIndex } from './epub/readium-index';
import { parseXml } from './xml';
import { readBookZip } from './zip/book-zip';
import type { ZipEntry } from './zip/directory';
import { assertReadableEntry, readEntryBytes } from './zip/entry';
import { openZipPage, readZipPageHeader, zipPage } from './zip/page-locator';

const CONTAINER_PATH = 'META-INF/container.xml';
const METADATA_MAX_SIZE = 4 * 1024 * 1024;

const notAnEpub = (why: string) =>
  new BookAnalysisError('not_an_epub', `The file is a ZIP archive but not an EPUB: ${why}`);

function lookup(entries: ZipEntry[]): EntryLookup {
  const exact = new Map(entries.filter((e) => !e.directory).map((e) => [e.name, e]));
  const folded = new Map(entries.filter((e) => !e.directory).map((e) => [e.name.toLowerCase(), e]));
  // Paths in EPUBs are case-sensitive, but books made on Windows/macOS often get the case wrong.
  return (path) => exact.get(path) ?? folded.get(path.toLowerCase());
}

async function readXmlEntry(reader: RangeReader, entry: ZipEntry, what: string) {
  assertReadableEntry(entry);
  const xml = parseXml(await readEntryBytes(reader, entry, METADATA_MAX_SIZE));
  if (!xml) throw new BookAnalysisError('corrupt', `The EPUB's ${what} is not valid XML`);
  return xml;
}

async function readPackage(reader: RangeReader, find: EntryLookup): Promise<PackageDocument> {
  const containerEntry = find(CONTAINER_PATH);
  if (!containerEntry) throw notAnEpub(`it has no ${CONTAINER_PATH}`);
  const opfPath = rootfilePath(await readXmlEntry(reader, containerEntry, 'container.xml'));
  const opfEntry = opfPath ? find(opfPath) : undefined;
  if (!opfPath) throw notAnEpub('its container.xml names no package document');
  if (!opfEntry) throw notAnEpub(`its package document ${opfPath} is missing`);
  const pkg = readPackageDocument(await readXmlEntry(reader, opfEntry, 'package document'), opfEntry.name);
  if (!pkg) throw notAnEpub(`${opfEntry.name} is not a package document`);
  return pkg;
}

async function analyze(reader: RangeReader): Promise<BookAnalysis> {
  const entries = await readBookZip(reader, 'epub');
  const find = lookup(entries);
  const pkg = await readPackage(reader, find);
  if (pkg.spine.length === 0)
    throw new BookAnalysisError('no_pages', 'The EPUB has no content: its reading order (spine) is empty');
  const cover = pkg.coverImage ? find(pkg.coverImage.path) : undefined;
  const coverImage = cover && imageMediaType(cover.name) && !cover.encrypted ? zipPage(cover, 0) : null;
  const images = await spineImages(reader, pkg.spine, pkg.fixedLayout, find);
  const readiumIndex = (await buildReadiumIndex(reader, pkg, find)) as unknown as JsonValue;
  if (images) {
    for (const entry of images) assertReadableEntry(entry);
    const pages = images.map(zipPage);
    const coverIndex = cover ? images.findIndex((entry) => entry.name === cover.name) : -1;
    return {
      format: 'epub',
      pages,
      pageCount: pages.length,
      metadata: { ...pkg.metadata, epubLayout: 'image' },
      coverPage: coverIndex >= 0 ? coverIndex + 1 : null,
      containerIndex: { coverImage: coverImage as unknown as JsonValue },
      readiumIndex,
    };
  }
  const pageCount = readiumPositions(pkg.spine, find, pkg.fixedLayout);
  if (pageCount === 0)
    throw new BookAnalysisError('no_pages', 'The EPUB has no content: none of its spine documents exist');
  return {
    format: 'epub',
    pages: [],
    pageCount,
    metadata: { ...pkg.metadata, epubLayout: 'reflowable' },
    coverPage: null,
    containerIndex: { coverImage: coverImage as unknown as JsonValue },
    readiumIndex,
  };
}

/** The cover image an EPUB names (also for reflowable books, which have no image pages), from the container index. */
export function epubCoverImage(containerIndex: JsonValue | null): BookPage | null {
  if (!containerIndex || typeof containerIndex !== 'object' || Array.isArray(containerIndex)) return null;
  const cover = containerIndex.coverImage;
  if (!cover || typeof cover !== 'object' || Array.isArray(cover)) return null;
  return cover as unknown as BookPage;
}

export const epubContainer: BookContainer = {
  format: 'epub',
  analyze,
  openPage: (reader, locator: PageLocator) => openZipPage(reader, locator),
  readPageHeader: (reader, locator: PageLocator) => readZipPageHeader(reader, locator),
};
