/**
 * TEST FACTORY: many books a Kobo may sync, written straight into D1 (test/support/catalog-factory.ts) — EPUBs,
 * CBZs and CBRs in turn, the comics with a page index of JPEG pages as a scan stores it — so paging and diffing
 * are tested at sizes a scan of real files would take minutes to reach. Downloads are tested on scanned files.
 */
import { bookPages } from '../../src/db/schema';
import { db, seedBook, seedSeries } from './catalog-factory';

const FORMATS = ['epub', 'cbz', 'cbr'] as const;
const COMIC_PAGES = 4;

/** A page-index row of a JPEG page, as the scan writes it for each format. */
function pageRow(bookId: string, format: 'cbz' | 'cbr', number: number) {
  const size = 50_000 + number;
  const locator =
    format === 'cbz'
      ? {
          kind: 'zip',
          name: `${number}.jpg`,
          offset: number * 60_000,
          method: 0,
          compressedSize: size,
          size,
          crc32: 1,
          headerHint: 36,
        }
      : {
          kind: 'rar',
          name: `${number}.jpg`,
          format: 4,
          offset: number * 60_000,
          packedSize: size,
          size,
          crc32: 1,
          method: 0,
          unpackVersion: 29,
          dictionarySize: 0,
          solid: false,
          hostOs: 2,
          chain: null,
        };
  return {
    bookId,
    number,
    fileName: `${number}.jpg`,
    mediaType: 'image/jpeg',
    width: 800,
    height: 1200,
    size,
    locator,
  };
}

/** `count` books in series of ten (numbered), formats in turn; returns their ids. */
export async function seedKoboBooks(library: { id: string }, count: number, prefix = 'Kobo'): Promise<string[]> {
  const ids: string[] = [];
  let owner: Awaited<ReturnType<typeof seedSeries>> | null = null;
  const pages: Array<ReturnType<typeof pageRow>> = [];
  for (let i = 0; i < count; i++) {
    if (i % 10 === 0) owner = await seedSeries(library, { title: `${prefix} Series ${i / 10 + 1}` });
    const fileFormat = FORMATS[i % 3] as (typeof FORMATS)[number];
    const book = await seedBook(owner as NonNullable<typeof owner>, {
      title: `${prefix} Book ${i + 1}`,
      number: (i % 10) + 1,
      fileFormat,
      pageCount: fileFormat === 'epub' ? 40 : COMIC_PAGES,
      epubLayout: fileFormat === 'epub' ? 'reflowable' : null,
      fileSize: 100_000 + i,
    });
    ids.push(book.id);
    if (fileFormat !== 'epub') {
      for (let n = 1; n <= COMIC_PAGES; n++) pages.push(pageRow(book.id, fileFormat, n));
    }
  }
  // Eight values a row, under D1's 100 bound parameters.
  for (let i = 0; i < pages.length; i += 12) await db.insert(bookPages).values(pages.slice(i, i + 12));
  return ids;
}
