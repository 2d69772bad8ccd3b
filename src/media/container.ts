/**
 * The one interface every book format implements (cbz, cbr, epub, pdf). The scanner calls `analyze`
 * once per file and stores the result (pages with their locators in book_pages, `containerIndex` on
 * the book); the page endpoint later calls `openPage` with a stored locator, so serving a page needs
 * no directory re-read. Implementations are pure: no Hono, no drizzle, only a RangeReader.
 */
import type { RangeReader } from './range-reader';

export type BookFormat = 'cbz' | 'cbr' | 'epub' | 'pdf';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/**
 * Where a page's bytes are, in a format-specific JSON shape chosen by its container (stored in
 * book_pages.locator). `kind` names the shape so a container can reject a locator that is not its own.
 */
export type PageLocator = { kind: string; [key: string]: JsonValue };

export interface BookPage {
  /** 1-based page number in reading order. */
  number: number;
  /** Entry name inside the archive (EPUB: the image's path; PDF: `page-0001`). */
  fileName: string;
  mediaType: string;
  /** Size in bytes of the page image as served (uncompressed); 0 when only known after rendering. */
  size: number;
  locator: PageLocator;
}

export interface BookAuthor {
  name: string;
  /** Lower-case role: writer, penciller, inker, colorist, letterer, cover, editor, translator, author… */
  role: string;
}

/** A web page about the book (ComicInfo Web, a provider's page): `label` names the site. */
export interface WebLink {
  label: string;
  url: string;
}

export type ReadingDirection = 'ltr' | 'rtl' | 'ttb' | 'webtoon';

/** A story arc the book belongs to (ComicInfo StoryArc), at its number in the arc when the file gives one. */
export interface StoryArc {
  name: string;
  number: number | null;
}
export type EpubLayout = 'image' | 'reflowable';

/** Metadata the file itself carries (ComicInfo.xml, EPUB OPF, PDF /Info). null = not stated. */
export interface BookMetadata {
  title: string | null;
  summary: string | null;
  /** Integer part of the book number (`12.5` → 12). */
  number: number | null;
  volume: number | null;
  /** Full, possibly fractional, number (`12.5`). */
  chapter: number | null;
  series: string | null;
  seriesGroup: string | null;
  publisher: string | null;
  /** The publisher's line the book came out under (ComicInfo Imprint). */
  imprint: string | null;
  year: number | null;
  /** Release month (1–12) and day (1–31), when the file states them. */
  month: number | null;
  day: number | null;
  authors: BookAuthor[];
  genres: string[];
  tags: string[];
  characters: string[];
  teams: string[];
  locations: string[];
  /** ISBN-13 or ISBN-10 (ComicInfo GTIN, EPUB dc:identifier), digits only (an ISBN-10 may end in X). */
  isbn: string | null;
  /** ComicInfo Format: "TPB", "Annual", "One-Shot"… as written. */
  format: string | null;
  /** Books the series has in all (ComicInfo Count), whether or not the library holds them. */
  count: number | null;
  links: WebLink[];
  /** BCP 47 / ISO 639 code as written in the file. */
  language: string | null;
  readingDirection: ReadingDirection | null;
  /** Minimum age (ComicInfo AgeRating, media/age-rating.ts); EPUB and PDF have no standard rating. */
  ageRating: number | null;
  /** EPUB only: image pages (fixed-layout / image-only) or reflowable text. */
  epubLayout: EpubLayout | null;
  storyArcs: StoryArc[];
}

export interface BookAnalysis {
  format: BookFormat;
  /** Servable image pages in reading order (empty for reflowable EPUB). */
  pages: BookPage[];
  /** pages.length, except reflowable EPUB: Readium positions (DECISIONS.md §Books). */
  pageCount: number;
  metadata: BookMetadata;
  /** 1-based page number of the cover, when the file names one. */
  coverPage: number | null;
  /** Format-specific data openPage may need beyond the locator (stored in books.container_index). */
  containerIndex: JsonValue | null;
  /** EPUB: what the Readium endpoints serve (resources, spine, TOC), stored in books.readium_index. */
  readiumIndex?: JsonValue | null;
}

export interface PageContent {
  stream: ReadableStream<Uint8Array>;
  /** Byte length of the stream when known up front (Content-Length). */
  size: number | null;
  mediaType: string;
}

export interface ImageDimensions {
  width: number;
  height: number;
  /** The image's type as its bytes say (a `.png` may hold a JPEG), when the header was recognised. */
  mediaType?: string;
}

export interface BookContainer {
  readonly format: BookFormat;
  /** Throws BookAnalysisError for anything wrong with the file; never hangs on bad input. */
  analyze(reader: RangeReader): Promise<BookAnalysis>;
  /** Streams one page as stored (no transcoding). Throws BookAnalysisError('render_required') for PDF pages without a single embedded JPEG. */
  openPage(reader: RangeReader, locator: PageLocator, containerIndex?: JsonValue | null): Promise<PageContent>;
  /** Width and height from the first bytes of the page image; null when the header is not recognised. */
  readPageHeader(
    reader: RangeReader,
    locator: PageLocator,
    containerIndex?: JsonValue | null,
  ): Promise<ImageDimensions | null>;
}

export function emptyMetadata(): BookMetadata {
  return {
    title: null,
    summary: null,
    number: null,
    volume: null,
    chapter: null,
    series: null,
    seriesGroup: null,
    publisher: null,
    imprint: null,
    year: null,
    month: null,
    day: null,
    authors: [],
    genres: [],
    tags: [],
    characters: [],
    teams: [],
    locations: [],
    isbn: null,
    format: null,
    count: null,
    links: [],
    language: null,
    readingDirection: null,
    ageRating: null,
    epubLayout: null,
    storyArcs: [],
  };
}

export { BookAnalysisError, type BookAnalysisErrorCode, isBookAnalysisError } from './errors';
