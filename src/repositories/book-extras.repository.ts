/**
 * The book fields OPDS entries show beyond the Book response (authors, language, year, publisher, ISBN,
 * genres and tags) and
 * what page streaming needs (EPUB layout, the media types of the stored pages), for one feed page of
 * books in one statement.
 */
import { and, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';
import { books, covers, series } from '../db/schema';
import { type Author, firstBookOf, inIds, parseAuthors } from './catalog-sql';
import { type Viewer, visibleBooks } from './visibility';

/** The book a series' cover comes from when it has no stored one (book-media.repository.ts firstBookOfSeries). */
const coverBook = alias(books, 'cover_book');

/**
 * Whether a book has a cover to show, as ThumbnailService finds one: an uploaded cover selected, a thumbnail
 * made, or an image to make one from (a cover the file names, or image pages), and no failure recorded.
 */
function coverAvailable(book: typeof books | typeof coverBook) {
  return sql<number>`(EXISTS (SELECT 1 FROM ${covers} WHERE ${covers.bookId} = ${book.id} AND ${covers.selected} = 1)
    OR (${book.analysisError} IS NULL AND ${book.thumbnailError} IS NULL AND (
      ${book.thumbnailKey} IS NOT NULL OR ${book.coverLocator} IS NOT NULL
      OR (${book.pageCount} > 0 AND (${book.fileFormat} <> 'epub' OR ${book.epubLayout} = 'image')))))`;
}

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
        hasCover: coverAvailable(books),
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

  /**
   * The series among `ids` whose cover URL answers an image to this viewer (ThumbnailService#forSeries): a
   * stored series cover, else the cover of its first book in reading order when the viewer sees that book.
   * Feeds link covers only for these (issue 22: a link that answers 404 shows as a broken image).
   */
  async seriesWithCovers(viewer: Viewer, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .select({ id: series.id })
      .from(series)
      .where(
        and(
          inIds(series.id, ids),
          sql`(${series.thumbnailKey} IS NOT NULL OR EXISTS (SELECT 1 FROM ${books} AS ${sql.raw('cover_book')}
            WHERE ${coverBook.id} = ${firstBookOf(series.id)} AND ${visibleBooks(viewer, coverBook)}
            AND ${coverAvailable(coverBook)}))`,
        ),
      );
    return new Set(rows.map((row) => row.id));
  }
}
