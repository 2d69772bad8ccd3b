/**
 * The book fields OPDS entries show beyond the Book response (authors, language, year, publisher) and
 * what page streaming needs (EPUB layout, the media types of the stored pages), for one feed page of
 * books in one statement.
 */
import { and, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { books } from '../db/schema';
import { type Author, inIds, parseAuthors } from './catalog-sql';
import { type Viewer, visibleBooks } from './visibility';

/** Metadata a reader app shows that the Book response does not carry. */
export interface BookExtras {
  authors: Author[];
  language: string | null;
  year: number | null;
  publisher: string | null;
  epubLayout: 'image' | 'reflowable' | null;
  /** Distinct media types of the book's stored pages. */
  pageTypes: string[];
}

export class BookExtrasRepository {
  constructor(private readonly db: Database) {}

  /** The extras of the books among `ids` the viewer may see. */
  async forBooks(viewer: Viewer, ids: readonly string[]): Promise<Map<string, BookExtras>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .select({
        id: books.id,
        authors: books.authors,
        language: books.language,
        year: books.year,
        publisher: books.publisher,
        epubLayout: books.epubLayout,
        pageTypes: sql<
          string | null
        >`(SELECT group_concat(DISTINCT p.media_type) FROM book_pages p WHERE p.book_id = ${books.id})`,
      })
      .from(books)
      .where(and(inIds(books.id, ids), visibleBooks(viewer, books)));
    return new Map(
      rows.map(({ id, authors, pageTypes, ...row }) => [
        id,
        { ...row, authors: parseAuthors(authors), pageTypes: pageTypes ? pageTypes.split(',') : [] },
      ]),
    );
  }
}
