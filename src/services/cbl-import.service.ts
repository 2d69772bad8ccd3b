/**
 * Importing a ComicRack reading list (docs/DECISIONS.md §Read lists, CBL import): each entry matched to a
 * book the importer may see (src/lists/cbl-matching.ts), the unmatched ones reported, and the read list of the
 * file's name created — or, when one of that name exists, its books replaced by the matches in the file's
 * order (so a re-import of an updated list updates it). A dry run reports the same and writes nothing.
 */
import { badRequest } from '../lib/errors';
import { type CblReadingList, CblError, parseCbl } from '../lists/cbl';
import { type CblCandidate, matchEntry, numberText, seriesTitles } from '../lists/cbl-matching';
import type { ReadListsRepository } from '../repositories/read-lists.repository';
import type { Viewer } from '../repositories/visibility';
import type { CblImportReport } from '../schemas/lists.schema';
import type { ReadListsService } from './read-lists.service';

export interface CblMatches {
  list: CblReadingList;
  matches: Array<{ book: CblCandidate | null; alsoMatched: number }>;
  /** Every candidate by series, for a Komga match report (which lists each series' fitting books). */
  candidates: CblCandidate[];
}

export class CblImportService {
  constructor(
    private readonly readLists: ReadListsRepository,
    private readonly lists: ReadListsService,
  ) {}

  /** The file read (a 400 with the reason when it is not a reading list) and every entry matched. */
  async match(viewer: Viewer, bytes: Uint8Array): Promise<CblMatches> {
    return this.matchList(viewer, readCbl(bytes));
  }

  /** Every entry of a reading list already read matched against the books the viewer may see. */
  async matchList(viewer: Viewer, list: CblReadingList): Promise<CblMatches> {
    const titles = list.entries.flatMap(seriesTitles);
    const candidates = (await this.readLists.cblCandidates(viewer, titles)).map(
      (row): CblCandidate => ({ ...row, number: numberText(row.number) }),
    );
    return { list, matches: list.entries.map((entry) => matchEntry(entry, candidates)), candidates };
  }

  async import(viewer: Viewer, bytes: Uint8Array, dryRun: boolean): Promise<CblImportReport> {
    const { list, matches } = await this.match(viewer, bytes);
    const seen = new Set<string>();
    const entries = list.entries.map((entry, index) => {
      const book = matches[index]?.book ?? null;
      const duplicate = book !== null && seen.has(book.bookId);
      if (book) seen.add(book.bookId);
      return {
        index,
        series: entry.series,
        number: entry.number,
        volume: entry.volume,
        year: entry.year,
        matched: book !== null,
        bookId: book?.bookId ?? null,
        seriesId: book?.seriesId ?? null,
        title: book?.title ?? null,
        alsoMatched: matches[index]?.alsoMatched ?? 0,
        duplicate,
      };
    });
    const bookIds = [...seen];
    const existing = await this.readLists.idByName(list.name);
    const report: CblImportReport = {
      name: list.name,
      dryRun,
      readListId: null,
      created: false,
      updated: false,
      matched: entries.filter((e) => e.matched).length,
      unmatched: entries.filter((e) => !e.matched).length,
      entries,
    };
    // Nothing matched: no empty list is made (Kavita's rule); an existing one is left as it was.
    if (dryRun || bookIds.length === 0) return report;
    if (existing) {
      // The list must be one the importer may see, like any other edit.
      await this.lists.row(viewer, existing);
      await this.lists.writeVisibleMembers(viewer, existing, bookIds, list.summary ? { summary: list.summary } : {});
      return { ...report, readListId: existing, updated: true };
    }
    const id = await this.lists.insert({ name: list.name, summary: list.summary ?? '', ordered: true }, bookIds);
    return { ...report, readListId: id, created: true };
  }
}

/** The reading list in the bytes; a 400 naming the problem (Komga's code in `details`) when it is not one. */
export function readCbl(bytes: Uint8Array): CblReadingList {
  try {
    return parseCbl(bytes);
  } catch (error) {
    if (error instanceof CblError) throw badRequest(error.message, [{ path: 'file', message: error.code }]);
    throw error;
  }
}
