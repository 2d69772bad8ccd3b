/**
 * The ComicRack reading-list format (`.cbl`, "ComicBookReadingList"), as the community lists publish it and as
 * Komga and Kavita read it — for issue 19's CBL import. The tests generate their own files with `writeCbl`.
 *
 * Public example: DieselTech/CBL-ReadingLists `Boom/[Boom!] Klaus.cbl` (commit 24722099f3617e6ba7f628ae9db4bbeedad3a194):
 *
 * ```xml
 * <?xml version="1.0" encoding="utf-8"?>
 * <ReadingList xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
 * <Name>[Boom!] Klaus</Name>
 * <NumIssues>11</NumIssues>
 * <Books>
 * <Book Series="Klaus" Number="1" Volume="2015" Year="2015">
 * <Database Name="cv" Series="85771" Issue="505000" />
 * </Book>
 * … (10 more Book elements; an ampersand in a series name is written `&#38;`)
 * </Books>
 * <Matchers />
 * </ReadingList>
 * ```
 *
 * - `ReadingList` root; `Name` (required by Komga: ERR_1030), `NumIssues` (informational), `Books` (at least one
 *   `Book`: ERR_1029), `Matchers` (ComicRack smart-list rules, ignored by every server).
 * - `Book` attributes: `Series` and `Number` (both required by Komga: ERR_1031; Number is a string: "1", "001",
 *   "1.5", "Annual 1"), `Volume` (the series' start year in these lists; an integer in Komga, which then also
 *   tries the title `Series (Volume)` unless Volume is 1), `Year` (the issue's cover year; ignored by Komga's
 *   matcher), optional `FileName`; Kavita also reads `Format` and `FileType`.
 * - `Database` child: `Name="cv"` (Comic Vine) with the Comic Vine `Series` and `Issue` ids; ignored by Komga and
 *   Kavita (kept for tools that match by id).
 * - Kavita's additions (not standard): `Summary`, `StartYear`, `StartMonth`, `EndYear`, `EndMonth` elements.
 *
 * Readers: Komga `komga/src/main/kotlin/org/gotson/komga/infrastructure/metadata/comicrack/ReadListProvider.kt`
 * and `…/comicrack/dto/ReadingList.kt`, `Book.kt` (Jackson XML, unknown elements ignored, so `Series` etc. may
 * also be child elements), `…/comicrack/ComicInfoProvider.kt` `computeSeriesFromSeriesAndVolume`; Kavita
 * `API/DTOs/ReadingLists/CBL/CblReadingList.cs`, `CblBook.cs` (Kareadita/Kavita).
 */

export interface CblBook {
  series: string;
  number: string;
  volume?: number;
  year?: number;
  /** Comic Vine ids, written as `<Database Name="cv" Series="…" Issue="…" />`. */
  comicVine?: { series: number; issue: number };
  fileName?: string;
}

export interface CblReadingList {
  name: string;
  books: CblBook[];
  /** Kavita's extension. */
  summary?: string;
}

const xmlEscape = (text: string) =>
  text.replace(/&/g, '&#38;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A `.cbl` file in the layout of the community lists (attributes on `Book`, `Database` child, `Matchers`). */
export function writeCbl(list: CblReadingList): string {
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<ReadingList xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">',
    `<Name>${xmlEscape(list.name)}</Name>`,
  ];
  if (list.summary !== undefined) lines.push(`<Summary>${xmlEscape(list.summary)}</Summary>`);
  lines.push(`<NumIssues>${list.books.length}</NumIssues>`, '<Books>');
  for (const book of list.books) {
    const attributes = [`Series="${xmlEscape(book.series)}"`, `Number="${xmlEscape(book.number)}"`];
    if (book.volume !== undefined) attributes.push(`Volume="${book.volume}"`);
    if (book.year !== undefined) attributes.push(`Year="${book.year}"`);
    if (book.fileName !== undefined) attributes.push(`FileName="${xmlEscape(book.fileName)}"`);
    lines.push(`<Book ${attributes.join(' ')}>`);
    if (book.comicVine) {
      lines.push(`<Database Name="cv" Series="${book.comicVine.series}" Issue="${book.comicVine.issue}" />`);
    }
    lines.push('</Book>');
  }
  lines.push('</Books>', '<Matchers />', '</ReadingList>', '');
  return lines.join('\n');
}

/** Komga's series-title candidates for one Book: `Series (Volume)` when Volume ≠ 1, then `Series`. */
export function komgaCblSeriesCandidates(book: Pick<CblBook, 'series' | 'volume'>): string[] {
  const withVolume = book.volume !== undefined && book.volume !== 1 ? `${book.series} (${book.volume})` : book.series;
  return [...new Set([withVolume, book.series])];
}

/** Komga's number comparison: leading zeros stripped, case ignored ("001" = "1", "1a" = "1A"). */
export const komgaCblNumbersEqual = (a: string, b: string) =>
  a.replace(/^0+/, '').toLowerCase() === b.replace(/^0+/, '').toLowerCase();
