/**
 * What the reader reads and writes through the app's API client (api/client.ts): the book, its pages,
 * its series' books (for next/previous), and progress. The progress saver is one per app, so a reconnect
 * sends what any reader queued.
 */
import { ApiError, get, put } from '../api/client';
import type { Book, BookPageEntry } from '../api/types';
import { ProgressRejected, ProgressSaver, type ProgressTransport, type ProgressUpdate } from './progress-saver';

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

export async function fetchProgress(bookId: string): Promise<ServerProgress | null> {
  try {
    return await get<ServerProgress>(`/books/${bookId}/progress`);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** Network failures stay retryable; an answer that refuses the write (4xx) is final. */
function classify(error: unknown): never {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401) {
    throw new ProgressRejected(error.message);
  }
  throw error;
}

const transport: ProgressTransport = {
  async updatedAt(bookId) {
    try {
      return (await fetchProgress(bookId))?.updatedAt ?? null;
    } catch (error) {
      return classify(error);
    }
  },
  async put(bookId, update: ProgressUpdate) {
    try {
      await put(`/books/${bookId}/progress`, {
        current_page: update.currentPage,
        is_completed: update.completed,
        ...(update.percentage === undefined ? {} : { progress_percentage: update.percentage }),
        ...(update.locator === undefined ? {} : { locator: update.locator }),
      });
    } catch (error) {
      classify(error);
    }
  },
};

export const progressSaver = new ProgressSaver(transport, localStorage);

/** Where to open a book: a position recorded here and not yet sent wins over the server's (older) one. */
export function startingPosition(
  bookId: string,
  server: ServerProgress | null | undefined,
): { page: number; percentage: number | null; locator: string | null } {
  const local = progressSaver.pending()[bookId];
  if (local && (!server || local.savedAt >= Date.parse(server.updatedAt))) {
    return {
      page: local.update.completed ? 1 : local.update.currentPage,
      percentage: local.update.percentage ?? null,
      locator: local.update.locator ?? null,
    };
  }
  if (!server) return { page: 1, percentage: null, locator: null };
  return {
    page: server.completed ? 1 : server.currentPage,
    percentage: server.completed ? null : server.progressPercentage,
    locator: server.completed ? null : (server.locator ?? null),
  };
}
