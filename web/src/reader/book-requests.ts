/**
 * The reader's reads through the app's API client (api/client.ts): the book, its pages, its progress and
 * its series' books (for next/previous). Small on purpose: early-load.ts, in the app's first download,
 * uses it to start loading a book opened by address before the reader's code has arrived.
 */
import { ApiError, get } from '../api/client';
import type { Book, BookPageEntry } from '../api/types';

/** GET /books/{id}/progress; `locator` arrives with DECISIONS.md §Reader apps. */
export interface ServerProgress {
  currentPage: number;
  completed: boolean;
  progressPercentage: number | null;
  locator?: string | null;
  updatedAt: string;
}

export interface PageOfBooks {
  data: Book[];
}

export const fetchBook = (bookId: string) => get<Book>(`/books/${bookId}`);
export const fetchPages = (bookId: string) => get<BookPageEntry[]>(`/books/${bookId}/pages`);
/** The series' books in reading order (the server's default order). */
export const SERIES_BOOKS_QUERY = { pageSize: 500 } as const;
export const fetchSeriesBooks = (seriesId: string) =>
  get<PageOfBooks>(`/series/${seriesId}/books`, { query: SERIES_BOOKS_QUERY }).then((page) => page.data);

/** A read list's books in its order: the reader's next/previous when a book is read from the list. */
export const fetchReadListBooks = (readListId: string) =>
  get<PageOfBooks>(`/readlists/${readListId}/books`, { query: SERIES_BOOKS_QUERY }).then((page) => page.data);

export async function fetchProgress(bookId: string): Promise<ServerProgress | null> {
  try {
    return await get<ServerProgress>(`/books/${bookId}/progress`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export interface BookAndPages {
  book: Book;
  pages: BookPageEntry[];
  progress: ServerProgress | null;
}

/**
 * The book and its pages in parallel: none needs another's answer. The book carries the user's progress
 * (`readProgress`, the same record as GET /books/{id}/progress), so opening a book costs two requests,
 * not three: on a browser's six connections per server, a third would queue the first page's image.
 */
export function loadBookAndPages(bookId: string): Promise<BookAndPages> {
  return Promise.all([fetchBook(bookId), fetchPages(bookId)]).then(([book, pages]) => ({
    book,
    pages,
    progress: (book.readProgress as ServerProgress | undefined) ?? null,
  }));
}
