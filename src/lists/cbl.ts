/**
 * ComicRack reading lists (`.cbl`, "ComicBookReadingList"), as the community lists publish them and as Komga
 * reads them (docs/DECISIONS.md §Read lists, CBL import): a `ReadingList` with a `Name` and `Books/Book`
 * entries whose `Series` and `Number` (attributes, or child elements as Jackson also accepts) say which issue,
 * and `Volume` (the series' start year) and `Year` (the issue's) help tell series apart. `Matchers` and the
 * Comic Vine `Database` ids are ignored, as every server ignores them. A file that is not one is refused with
 * Komga's error code and a reason a person can act on.
 */
import { XMLValidator } from 'fast-xml-parser';
import { attr, child, childText, children, parseXml } from '../media/xml';

/** Community lists run to a few thousand issues (~1 MB); anything far larger is not a reading list. */
export const CBL_MAX_BYTES = 8 * 1024 * 1024;
export const CBL_MAX_ENTRIES = 20_000;

export interface CblEntry {
  series: string;
  /** As written ("1", "001", "1.5", "Annual 1"). */
  number: string;
  /** The series' start year in these lists. */
  volume: number | null;
  /** The cover year. */
  year: number | null;
}

export interface CblReadingList {
  name: string;
  /** Kavita's extension. */
  summary: string | null;
  entries: CblEntry[];
}

/** Komga's error codes (its web UI shows them), kept so /komga can answer with them. */
export type CblErrorCode = 'ERR_1015' | 'ERR_1029' | 'ERR_1030' | 'ERR_1031';

export class CblError extends Error {
  constructor(
    readonly code: CblErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CblError';
  }
}

const decoder = new TextDecoder('utf-8');

/** A value as an attribute or a child element of the Book. */
const field = (book: unknown, name: string) => attr(book, name) ?? childText(book, name);

function year(text: string | null): number | null {
  if (!text || !/^\d{1,4}$/.test(text)) return null;
  return Number(text);
}

export function parseCbl(bytes: Uint8Array): CblReadingList {
  if (bytes.length > CBL_MAX_BYTES) {
    throw new CblError('ERR_1015', `The file is ${bytes.length} bytes; a reading list is at most ${CBL_MAX_BYTES}`);
  }
  const text = decoder.decode(bytes).replace(/^\uFEFF/, '');
  if (text.trim() === '') throw new CblError('ERR_1015', 'The file is empty');
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    const { msg, line } = valid.err;
    throw new CblError('ERR_1015', `The file is not XML: ${msg} (line ${line})`);
  }
  const root = child(parseXml(bytes), 'ReadingList');
  if (!root || typeof root !== 'object') {
    throw new CblError('ERR_1015', 'The file is XML but not a ComicRack reading list (no <ReadingList> root)');
  }
  const name = childText(root, 'Name');
  if (!name) throw new CblError('ERR_1030', 'The reading list has no <Name>');
  const books = children(child(root, 'Books'), 'Book');
  if (books.length === 0) throw new CblError('ERR_1029', 'The reading list has no <Book> entries');
  if (books.length > CBL_MAX_ENTRIES) {
    throw new CblError('ERR_1015', `The reading list has ${books.length} entries; at most ${CBL_MAX_ENTRIES} are read`);
  }
  const entries = books.map((book, index): CblEntry => {
    const series = field(book, 'Series');
    const number = field(book, 'Number');
    if (!series || !number) {
      throw new CblError('ERR_1031', `Book ${index + 1} has no ${series ? 'Number' : 'Series'}`);
    }
    return { series, number, volume: year(field(book, 'Volume')), year: year(field(book, 'Year')) };
  });
  return { name, summary: childText(root, 'Summary'), entries };
}
