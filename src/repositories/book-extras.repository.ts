/**
 * The book fields OPDS entries show beyond the Book response (authors, language, year, publisher, ISBN,
 * genres and tags) and
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
  isbn: string | null;
  /** Genres and tags: OPDS categories. */
  genres: string[];
  tags: string[];
  epubLayout: 'image' | 'reflowable' | null;
  /** Distinct media types of the book's stored pages. */
  pageTypes: string[];
  /**
   * Whether the book has a cover to show: a thumbnail made, or an image to make one from (a cover the file
   * names, or image pages), and no failure recorded. Without one, the cover URL answers 404 to reader apps,
   * so feeds leave the link out (issue 22).
   */
  hasCover: boolean;
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
        isbn: books.isbn,
        terms: sql<string | null>`(SELECT json_group_array(json_array(t.kind, t.value)) FROM book_terms t
          WHERE t.book_id = ${books.id} AND t.kind IN ('genre', 'tag'))`,
        epubLayout: books.epubLayout,
        hasCover: sql<number>`(${books.analysisError} IS NULL AND ${books.thumbnailError} IS NULL AND (
          ${books.thumbnailKey} IS NOT NULL OR ${books.coverLocator} IS NOT NULL
          OR (${books.pageCount} > 0 AND (${books.fileFormat} <> 'epub' OR ${books.epubLayout} = 'image'))))`,
        pageTypes: sql<
          string | null
        >`(SELECT group_concat(DISTINCT p.media_type) FROM book_pages p WHERE p.book_id = ${books.id})`,
      })
      .from(books)
      .where(and(inIds(books.id, ids), visibleBooks(viewer, books)));
    return new Map(
      rows.map(({ id, authors, pageTypes, terms, hasCover, ...row }) => {
        const pairs = JSON.parse(terms ?? '[]') as Array<[string, string]>;
        const of = (kind: string) => pairs.filter(([k]) => k === kind).map(([, value]) => value);
        return [
          id,
          {
            ...row,
            authors: parseAuthors(authors),
            genres: of('genre'),
            tags: of('tag'),
            pageTypes: pageTypes ? pageTypes.split(',') : [],
            hasCover: Boolean(hasCover),
          },
        ];
      }),
    );
  }
}
