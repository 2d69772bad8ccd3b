/**
 * The book fields OPDS entries show beyond the Book response (authors, language, year, publisher) and
 * what page streaming needs (EPUB layout, the media types of the stored pages), for one feed page of
 * books in one statement.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import type { BookExtras } from './catalog-model';

interface ExtrasRow {
  id: string;
  authors: string | null;
  language: string | null;
  year: number | null;
  publisher: string | null;
  epub_layout: 'image' | 'reflowable' | null;
  page_types: string | null;
}

export class BookExtrasRepository {
  constructor(private readonly db: Database) {}

  async forBooks(ids: string[]): Promise<Map<string, BookExtras>> {
    if (ids.length === 0) return new Map();
    // One JSON parameter: D1 binds at most 100 parameters per statement.
    const rows =
      await this.db.all<ExtrasRow>(sql`SELECT b.id, b.authors, b.language, b.year, b.publisher, b.epub_layout,
        (SELECT group_concat(DISTINCT p.media_type) FROM book_pages p WHERE p.book_id = b.id) AS page_types
      FROM books b WHERE b.id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`);
    return new Map(
      rows.map((row) => [
        row.id,
        {
          authors: parseAuthors(row.authors),
          language: row.language,
          year: row.year,
          publisher: row.publisher,
          epubLayout: row.epub_layout,
          pageTypes: row.page_types ? row.page_types.split(',') : [],
        },
      ]),
    );
  }
}

function parseAuthors(json: string | null): Array<{ name: string; role: string }> {
  if (!json) return [];
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? value.filter((a) => typeof a?.name === 'string') : [];
  } catch {
    return [];
  }
}
