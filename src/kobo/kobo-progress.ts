/**
 * A Kobo's reading state ↔ Longbox's progress, through the one progress rulebook (src/progress/rules.ts;
 * DECISIONS.md §Kobo e-readers, progress).
 *
 * The device says where it is with `CurrentBookmark`: `ProgressPercent` (0–100, of the whole book),
 * `ContentSourceProgressPercent` (0–100, within the current XHTML file) and `Location` (`Source`: that file's
 * path in the EPUB; `Type`/`Value`: a KoboSpan, `kobo.43.2`, in KEPUBs), and its reading status with
 * `StatusInfo.Status` (ReadyToRead, Reading, Finished).
 *
 * - A comic sent as a fixed-layout EPUB has one file per page (`page-0007.xhtml`): its page is exact.
 * - A reflowable EPUB keeps the percentage, and the location as a Readium locator (`href`, `locations.
 *   progression`/`totalProgression`) with Kobo's span beside it (`koboSpan`, as Komga stores it), so Readium
 *   clients read it back and the Kobo is sent its own span.
 * - Finished is the last page; ReadyToRead (marked unread on the device) clears the progress.
 */
import { pageDocumentName, pageOfDocument, PACKAGE_PATH } from '../media/comic-epub/package-files';
import { lastPage, type PagedBook, readFraction } from '../progress/rules';
import type { SentPosition } from '../repositories/progress-position';

/** Kobo's `CurrentBookmark` (what the device sends and is sent). */
export interface KoboBookmark {
  ProgressPercent?: number | null;
  ContentSourceProgressPercent?: number | null;
  Location?: { Value?: string | null; Type?: string | null; Source?: string | null } | null;
}

export type KoboStatus = 'ReadyToRead' | 'Reading' | 'Finished';

/**
 * What a device's reading state asks of the progress, before the book is known: cleared, or a position whose
 * page, completion and percentage the write works out from the book's row in its own statement
 * (repositories/progress-position.ts `koboPosition`, by the rules below).
 */
export type ProgressChange = { kind: 'clear' } | Extract<SentPosition, { kind: 'kobo' }>;

/** A Readium locator as Longbox keeps one (komga-readium), with the Kobo span Komga adds. */
interface StoredLocator {
  href: string;
  type: string;
  locations: { progression?: number; totalProgression?: number };
  koboSpan?: string;
}

/** The folder the package document sits in: page files and spine hrefs are relative to it. */
const CONTENT_FOLDER = PACKAGE_PATH.slice(0, PACKAGE_PATH.lastIndexOf('/') + 1);

const fraction = (percent: number | null | undefined) =>
  typeof percent === 'number' && Number.isFinite(percent) ? Math.min(1, Math.max(0, percent / 100)) : undefined;

/**
 * The progress a device's reading state stands for; throws nothing (a state it cannot place is the start). A
 * comic is on the page its `Location.Source` names when it has that page, else on `ProgressPercent`'s page; any
 * other book on `ProgressPercent`'s page; a reflowable EPUB keeps the percentage and the location as a Readium
 * locator, and completes at its end; `Finished` is the last page.
 */
export function sentFromKobo(status: KoboStatus, bookmark: KoboBookmark | null): ProgressChange {
  if (status === 'ReadyToRead') return { kind: 'clear' };
  if (status === 'Finished') return { kind: 'kobo', finished: true, namedPage: null, locator: null };
  const total = fraction(bookmark?.ProgressPercent);
  const source = bookmark?.Location?.Source ?? null;
  const within = fraction(bookmark?.ContentSourceProgressPercent);
  const span =
    bookmark?.Location?.Type?.toLowerCase() === 'kobospan' ? (bookmark.Location.Value ?? undefined) : undefined;
  const locator: StoredLocator | null = source
    ? {
        href: source,
        type: 'application/xhtml+xml',
        locations: { ...(within !== undefined ? { progression: within } : {}), totalProgression: total ?? 0 },
        ...(span ? { koboSpan: span } : {}),
      }
    : null;
  return {
    kind: 'kobo',
    finished: false,
    ...(total !== undefined ? { fraction: total } : {}),
    namedPage: source ? pageOfDocument(source) : null,
    locator: locator ? JSON.stringify(locator) : null,
  };
}

/** A stored locator in Readium's shape (written here, by a Readium client or Komga's), or null (a CFI, an xpointer). */
function readiumLocator(locator: string | null): StoredLocator | null {
  if (!locator?.startsWith('{')) return null;
  try {
    const parsed = JSON.parse(locator) as Partial<StoredLocator>;
    return typeof parsed.href === 'string' && parsed.href !== ''
      ? { href: parsed.href, type: parsed.type ?? '', locations: parsed.locations ?? {}, koboSpan: parsed.koboSpan }
      : null;
  } catch {
    return null;
  }
}

/** The progress as Kobo's `CurrentBookmark` (without its LastModified), for the device's next sync. */
export function bookmarkFromProgress(
  book: PagedBook,
  progress: {
    currentPage: number;
    completed: boolean;
    progressPercentage: number | null;
    locator: string | null;
  } | null,
): KoboBookmark {
  if (!progress) return {};
  const percent = Math.round(readFraction(progress, book.pageCount) * 100_000) / 1000;
  if (book.fileFormat === 'cbz' || book.fileFormat === 'cbr') {
    const page = Math.min(Math.max(progress.currentPage, 1), lastPage(book.pageCount));
    return {
      ProgressPercent: percent,
      ContentSourceProgressPercent: 0,
      Location: { Value: null, Type: 'KoboSpan', Source: `${CONTENT_FOLDER}${pageDocumentName(page, book.pageCount)}` },
    };
  }
  const locator = readiumLocator(progress.locator);
  if (!locator) return { ProgressPercent: percent };
  const within = locator.locations.progression;
  return {
    ProgressPercent: percent,
    ...(typeof within === 'number' ? { ContentSourceProgressPercent: Math.round(within * 100_000) / 1000 } : {}),
    Location: { Value: locator.koboSpan ?? null, Type: 'KoboSpan', Source: locator.href },
  };
}

/** Kobo's reading status of the progress. */
export function statusOf(progress: { completed: boolean } | null): KoboStatus {
  if (!progress) return 'ReadyToRead';
  return progress.completed ? 'Finished' : 'Reading';
}
