/**
 * URLs of a book's page images and file. The session cookie authenticates them (DECISIONS.md §Web app),
 * so they go straight into `<img src>`; the same URL string is used for preloading, display and the offline
 * copy, so each of those finds what the others fetched.
 */

export const API_BASE = '/api/v1';

export function pageUrl(bookId: string, page: number, width: number | null): string {
  const base = `${API_BASE}/books/${encodeURIComponent(bookId)}/pages/${page}`;
  return width === null ? base : `${base}?width=${width}`;
}

export function bookFileUrl(bookId: string): string {
  return `${API_BASE}/books/${encodeURIComponent(bookId)}/file`;
}
