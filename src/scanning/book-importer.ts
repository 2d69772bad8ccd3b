/**
 * Turns one R2 object into catalog rows: analyse the file through its format container (range reads
 * only), group it into a series, and produce the book's row, pages and terms. Analysis failures
 * become `analysisError` on the row; the scan goes on.
 */
import type { BookAnalysis, BookFormat, PageLocator } from '../media/container';
import { epubCoverImage } from '../media/epub';
import { isBookAnalysisError } from '../media/errors';
import { analyzeBook } from '../media';
import { naturalSortKey } from '../media/natural-sort';
import { r2RangeReader } from '../media/range-reader';
import type {
  BookFileMetadata,
  BookRow,
  BookTerms,
  NewBookRow,
  PageRow,
  StoryArcPlacement,
} from '../repositories/catalog-writer.repository';
import { type KeyParts, splitKey } from './book-keys';
import { cachedRangeReader } from './cached-range-reader';
import { parseNumbers } from './number-parsing';
import { type SeriesGroup, seriesGroupOf, sortTitle } from './series-grouping';

export interface ListedObject {
  key: string;
  size: number;
  etag: string;
  uploaded: string;
}

export interface ImportedBook {
  key: string;
  group: SeriesGroup;
  /** Row without seriesId (known only once the series exists). */
  row: Omit<NewBookRow, 'seriesId'> & { id: string };
  pages: PageRow[];
  terms: BookTerms;
  /** The story arcs the file places the book in (read lists on scan, when the library opts in). */
  storyArcs: StoryArcPlacement[];
  isNew: boolean;
  error: string | null;
}

/** The message stored when analysis fails for a reason that is not the file's fault. */
const UNEXPECTED =
  'Longbox could not analyse this file because of an internal error; it will be retried on the next deep scan';

export async function importBook(
  bucket: R2Bucket,
  library: { id: string; path: string },
  object: ListedObject,
  format: BookFormat,
  existing: BookRow | undefined,
  now: string,
): Promise<ImportedBook> {
  const parts = splitKey(library.path, object.key);
  let analysis: BookAnalysis | null = null;
  let error: string | null = null;
  try {
    analysis = await analyzeBook(format, cachedRangeReader(await r2RangeReader(bucket, object.key, object.size)));
  } catch (cause) {
    if (isBookAnalysisError(cause)) error = cause.message;
    else {
      console.error(JSON.stringify({ level: 'error', msg: 'analysis crashed', key: object.key, error: String(cause) }));
      error = UNEXPECTED;
    }
  }
  const id = existing?.id ?? crypto.randomUUID();
  const group = seriesGroupOf(library.path, object.key, parts, analysis?.metadata ?? null);
  const stated = fileMetadata(parts, analysis);
  return {
    key: object.key,
    group,
    row: { ...bookRow(id, library.id, object, format, parts, analysis, error, existing, now), ...scalars(stated) },
    pages: (analysis?.pages ?? []).map((page) => ({
      bookId: id,
      number: page.number,
      fileName: page.fileName,
      mediaType: page.mediaType,
      size: page.size,
      width: null,
      height: null,
      locator: page.locator,
    })),
    terms: stated.terms,
    storyArcs: analysis?.metadata.storyArcs ?? [],
    isNew: !existing,
    error,
  };
}

/**
 * What the file states for every editable field, with the fallbacks a scan uses (the file name's title
 * and numbers). The scan writes these into the unlocked columns, and keeps them all on the book so that
 * unlocking a field brings its value back without reading the file again.
 */
function fileMetadata(parts: KeyParts, analysis: BookAnalysis | null): BookFileMetadata {
  const metadata = analysis?.metadata;
  const fromName = parseNumbers(parts.baseName);
  const title = metadata?.title?.trim() || parts.baseName;
  const chapter = metadata?.chapter ?? fromName.chapter;
  const number = metadata?.number ?? fromName.number;
  return {
    title,
    titleSort: sortTitle(title),
    summary: metadata?.summary ?? null,
    number,
    // ComicInfo's Number (and an EPUB's series position) as written (`12.5` is kept in chapter by the parse),
    // else the file name's: 2.5 stays 2.5.
    numberSort: metadata?.number != null ? (metadata.chapter ?? metadata.number) : fromName.numberSort,
    volume: metadata?.volume ?? fromName.volume,
    chapter,
    year: metadata?.year ?? null,
    month: metadata?.month ?? null,
    day: metadata?.day ?? null,
    publisher: metadata?.publisher ?? null,
    imprint: metadata?.imprint ?? null,
    language: metadata?.language ?? null,
    authors: metadata?.authors ?? [],
    isbn: metadata?.isbn ?? null,
    format: metadata?.format ?? null,
    count: metadata?.count ?? null,
    links: metadata?.links ?? [],
    terms: {
      genre: metadata?.genres ?? [],
      tag: metadata?.tags ?? [],
      character: metadata?.characters ?? [],
      team: metadata?.teams ?? [],
      location: metadata?.locations ?? [],
    },
  };
}

/** The book-row columns of what the file states (everything but the terms), and the statement itself. */
function scalars(stated: BookFileMetadata) {
  const { terms, ...columns } = stated;
  return { ...columns, fileMetadata: stated };
}

function bookRow(
  id: string,
  libraryId: string,
  object: ListedObject,
  format: BookFormat,
  parts: KeyParts,
  analysis: BookAnalysis | null,
  error: string | null,
  existing: BookRow | undefined,
  now: string,
): Omit<NewBookRow, 'seriesId' | 'title' | 'titleSort'> & { id: string } {
  const metadata = analysis?.metadata;
  const changed = !existing || existing.etag !== object.etag || existing.fileSize !== object.size;
  return {
    id,
    libraryId,
    path: object.key,
    fileName: parts.fileName,
    fileFormat: analysis?.format ?? format, // the content decides (a .zip may be an EPUB)
    fileSize: object.size,
    etag: object.etag,
    fileModifiedAt: object.uploaded,
    // Content hashes are computed by the background hash task; a changed file needs new ones.
    fileHash: changed ? '' : (existing?.fileHash ?? ''),
    readerHash: changed ? null : (existing?.readerHash ?? null),
    sortKey: naturalSortKey(parts.fileName),
    ageRating: metadata?.ageRating ?? null,
    readingDirection: metadata?.readingDirection ?? null,
    pageCount: analysis?.pageCount ?? 0,
    epubLayout: metadata?.epubLayout ?? null,
    // `analyzed` means page dimensions are known: the deferred dimensions pass sets it.
    analyzed: false,
    analysisError: error,
    containerIndex: analysis?.containerIndex ?? null,
    readiumIndex: analysis?.readiumIndex ?? null,
    coverLocator: analysis ? coverLocator(analysis) : null,
    thumbnailKey: changed ? null : (existing?.thumbnailKey ?? null),
    thumbnailUpdatedAt: changed ? null : (existing?.thumbnailUpdatedAt ?? null),
    // A re-analysed book gets another try at its thumbnail.
    thumbnailError: null,
    deletedAt: null,
    // Counted as queued from the moment it is written: the scan sends its message right after, and a
    // cron tick in between must not queue it a second time (the cron re-queues books never stamped).
    workQueuedAt: now,
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
  };
}

/**
 * Where the thumbnail comes from when it is not page 1: the cover page the file names (ComicInfo
 * FrontCover, EPUB cover-image among the pages), else an EPUB's cover image outside the reading order
 * (reflowable books have no image pages at all).
 */
function coverLocator(analysis: BookAnalysis): PageLocator | null {
  const named = analysis.coverPage === null ? undefined : analysis.pages[analysis.coverPage - 1];
  if (named) return named.locator;
  if (analysis.format === 'epub') return epubCoverImage(analysis.containerIndex)?.locator ?? null;
  return null;
}
