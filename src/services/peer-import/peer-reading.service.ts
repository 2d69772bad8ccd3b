/**
 * What a peer's users read and queued, imported (docs/DECISIONS.md §Coming from Komga or Kavita): read progress
 * (page, completion, dates; Komga's Readium locator kept as the EPUB position; Kavita's chapter progress placed
 * at the start of its EPUB spine item) and want-to-read. Progress goes through the progress repository's one
 * write path, which keeps `series_read_progress` true in the same transaction, and never replaces progress that
 * is as recent or newer: a second run writes nothing, reading done in Longbox since is kept.
 */
import { readiumIndexOf, readiumPositionList } from '../../media/epub/readium-index';
import type { JsonValue } from '../../media/container';
import { nowIso } from '../../lib/ids';
import { isReflowable, lastPage, progressFraction } from '../../progress/rules';
import type { ImportsRepository, ProgressFacts } from '../../repositories/imports.repository';
import type { ImportedProgress, ReadProgressRepository } from '../../repositories/read-progress.repository';
import type { WantToReadRepository } from '../../repositories/want-to-read.repository';
import type { ImportCounts, ImportProgressEntry, ImportWantToReadBody } from '../../schemas/import.schema';
import { instant } from './outcomes';

/** The API's `locator` limit (API.md §2, DECISIONS.md §Reader apps). */
const LOCATOR_MAX_CHARS = 4096;

export interface PeerReadingDeps {
  imports: ImportsRepository;
  progress: ReadProgressRepository;
  wantToRead: WantToReadRepository;
}

export class PeerReadingService {
  constructor(private readonly deps: PeerReadingDeps) {}

  /**
   * The books and users are read beside the credential check (the route is `checked-writes`); the rows are
   * written once it succeeded (`checked`).
   */
  async importProgress(
    source: string,
    entries: readonly ImportProgressEntry[],
    checked: () => Promise<void>,
  ): Promise<ImportCounts> {
    const { imports, progress } = this.deps;
    const spined = entries.filter((e) => e.epubSpineIndex !== null).map((e) => e.bookId);
    const [facts, users] = await Promise.all([
      imports.progressFacts([...new Set(entries.map((e) => e.bookId))], [...new Set(spined)]),
      imports.existingUsers([...new Set(entries.map((e) => e.userId))]),
    ]);
    const peer = source.startsWith('komga:') ? 'Komga' : 'Kavita';
    const skipped: ImportCounts['skipped'] = [];
    const rows: ImportedProgress[] = [];
    const seen = new Set<string>();
    entries.forEach((entry, index) => {
      const book = facts.get(entry.bookId);
      const key = `${entry.userId}:${entry.bookId}`;
      const reason = !users.has(entry.userId)
        ? `no user ${entry.userId}`
        : !book
          ? `no book ${entry.bookId}`
          : book.pageCount < 1
            ? 'the book is not analysed yet in Longbox: run the migration again once its scan is done'
            : seen.has(key)
              ? 'the same user and book twice in one batch'
              : null;
      if (reason || !book) {
        skipped.push({ index, reason: reason ?? 'no book' });
        return;
      }
      seen.add(key);
      rows.push(placed(entry, book, peer));
    });
    await checked();
    const written = await progress.importRows(rows);
    return { written, unchanged: rows.length - written, skipped };
  }

  async importWantToRead(body: ImportWantToReadBody): Promise<ImportCounts> {
    const added = await this.deps.wantToRead.importQueued(body.entries, nowIso());
    // What was not added was queued already, or names a user, series or book this server does not have.
    return { written: added, unchanged: body.entries.length - added, skipped: [] };
  }
}

/** An imported entry as a progress row of this book: its page within the book, percentage and locator. */
function placed(entry: ImportProgressEntry, book: ProgressFacts, peer: string): ImportedProgress {
  const pages = lastPage(book.pageCount);
  let page = Math.min(pages, Math.max(1, entry.page));
  let percentage = entry.percentage ?? undefined;
  let locator = entry.locator;
  const start = entry.epubSpineIndex === null ? undefined : spineStart(book, entry.epubSpineIndex);
  if (start) {
    page = Math.min(pages, start.locations.position);
    percentage = start.locations.totalProgression;
    locator = JSON.stringify(start);
  }
  if (entry.completed) page = entry.epubSpineIndex === null ? page : pages;
  return {
    userId: entry.userId,
    bookId: book.id,
    seriesId: book.seriesId,
    currentPage: page,
    completed: entry.completed,
    completedAt: entry.completed ? instant(entry.completedAt ?? entry.updatedAt) : null,
    progressPercentage: entry.completed && isReflowable(book) ? 1 : progressFraction(book, page, percentage),
    locator: fitted(locator),
    deviceId: `import:${peer.toLowerCase()}`,
    deviceName: peer,
    readerDevice: entry.device && entry.device.id !== '' ? entry.device : null,
    startedAt: instant(entry.startedAt),
    updatedAt: instant(entry.updatedAt),
  };
}

/** The first Readium position of a spine item of a reflowable EPUB (Kavita's book reader counts spine items). */
function spineStart(book: ProgressFacts, spineIndex: number) {
  if (!isReflowable(book)) return undefined;
  const index = readiumIndexOf(book.readiumIndex as JsonValue | null);
  if (!index || index.spine.length === 0) return undefined;
  const item = index.resources[index.spine[Math.min(spineIndex, index.spine.length - 1)] as number];
  const position = readiumPositionList(index).find((p) => p.href === item?.path);
  if (!position) return undefined;
  const { koboSpan: _kobo, ...locator } = position;
  return locator;
}

/** A locator within the stored limit: text excerpts go first; one still too long is left out (the page stays). */
function fitted(locator: string | null): string | null {
  if (locator === null || locator.length <= LOCATOR_MAX_CHARS) return locator;
  try {
    const { text: _text, title: _title, ...lean } = JSON.parse(locator) as Record<string, unknown>;
    const leaner = JSON.stringify(lean);
    return leaner.length <= LOCATOR_MAX_CHARS ? leaner : null;
  } catch {
    return null;
  }
}
