/**
 * A library for the reader's browser tests: a comic series of two books (one page of the first is a wide
 * two-page scan, pages large enough that the reader asks the server for smaller copies) and a reflowable
 * EPUB novel, uploaded and scanned through the API.
 */
import { buildEpub } from '../../fixtures/epub-writer';
import { call, createLibrary, scanAndWait, uploadBook } from './api';
import { comicBook } from './books';

/** Page size of the comic fixtures: portrait 1200×1800; page 5 of book 1 is a 2400×1800 spread. */
export const PAGE = { width: 1200, height: 1800 };
export const WIDE_PAGE_NUMBER = 5;
export const BOOK1_PAGES = 8;
export const BOOK2_PAGES = 3;

export interface ReaderLibrary {
  libraryId: string;
  book1: { id: string; seriesId: string; title: string };
  book2: { id: string; title: string };
  novel: { id: string; title: string };
}

export async function createReaderLibrary(baseUrl: string, token: string): Promise<ReaderLibrary> {
  const library = await createLibrary(baseUrl, token, 'Reader');
  const { width, height } = PAGE;
  await uploadBook(
    baseUrl,
    token,
    library.id,
    'Saga/Saga 01.cbz',
    comicBook(BOOK1_PAGES, { width, height, wide: [WIDE_PAGE_NUMBER - 1] }),
  );
  await uploadBook(baseUrl, token, library.id, 'Saga/Saga 02.cbz', comicBook(BOOK2_PAGES, { width, height }));
  const spine = Array.from({ length: 8 }, () => ({ kind: 'text' as const, bytes: 12_000 }));
  await uploadBook(baseUrl, token, library.id, 'Novel/Novel.epub', buildEpub({ spine }));
  await scanAndWait(baseUrl, token, library.id);
  const books = await call(baseUrl, 'GET', '/books', { token, query: { library_id: library.id, pageSize: '50' } });
  const find = (name: string) => {
    const book = books.data.find((b: { path: string }) => b.path.endsWith(name));
    if (!book) throw new Error(`${name} was not scanned: ${JSON.stringify(books.data.map((b: any) => b.path))}`);
    return book;
  };
  const book1 = find('Saga 01.cbz');
  await waitForPageSizes(baseUrl, token, book1.id);
  const book2 = find('Saga 02.cbz');
  const novel = find('Novel.epub');
  return {
    libraryId: library.id,
    book1: { id: book1.id, seriesId: book1.seriesId, title: book1.title },
    book2: { id: book2.id, title: book2.title },
    novel: { id: novel.id, title: novel.title },
  };
}

/** Page dimensions arrive with analysis, which may finish after the scan: the layout needs them. */
async function waitForPageSizes(baseUrl: string, token: string, bookId: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const pages = await call(baseUrl, 'GET', `/books/${bookId}/pages`, { token });
    if (pages.length > 0 && pages.every((p: { width: number | null }) => p.width !== null)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`book ${bookId} was not analyzed within ${timeoutMs} ms`);
}
