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

/** The extras of a book as columns of any statement reading `books` (a feed's page reads them with its rows). */
export const bookExtrasColumns = () => ({
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
});

const extrasQuery = (db: Database) => db.select(bookExtrasColumns()).from(books);
/** The extras as a statement reads them. */
export type BookExtrasRow = Awaited<ReturnType<typeof extrasQuery>>[number];

export function toBookExtras({ authors, pageTypes, terms, hasCover, ...row }: BookExtrasRow): BookExtras {
  const pairs = JSON.parse(terms ?? '[]') as Array<[string, string]>;
  const of = (kind: string) => pairs.filter(([k]) => k === kind).map(([, value]) => value);
  return {
    ...row,
    authors: parseAuthors(authors),
    genres: of('genre'),
    tags: of('tag'),
    pageTypes: pageTypes ? pageTypes.split(',') : [],
    hasCover: Boolean(hasCover),
  };
}

/**
 * What this request's lists have already read of their rows for a feed (books.repository.ts and
 * series.repository.ts, when built with one): an OPDS feed reads its page and what it shows beyond the API's
 * rows — a book's extras, whether a series has a cover — in one statement (issue 30), and asks here first.
 */
export interface FeedExtrasRead {
  books: Map<string, BookExtras>;
  seriesWithCover: Map<string, boolean>;
}

export const feedExtrasRead = (): FeedExtrasRead => ({ books: new Map(), seriesWithCover: new Map() });

/**
 * Whether a series' cover URL answers an image to this viewer (ThumbnailService#forSeries), as a column of any
 * statement reading `series`: a stored series cover, else the cover of its first book in reading order when
 * the viewer sees that book.
 */
export const seriesHasCoverColumn = (viewer: Viewer) =>
  sql<number>`(${series.thumbnailKey} IS NOT NULL OR EXISTS (SELECT 1 FROM ${books} AS ${sql.raw('cover_book')}
    WHERE ${coverBook.id} = ${firstBookOf(series.id)} AND ${visibleBooks(viewer, coverBook)}
    AND ${coverAvailable(coverBook)}))`;

export class BookExtrasRepository {
  constructor(
    private readonly db: Database,
    private readonly alreadyRead: FeedExtrasRead = feedExtrasRead(),
  ) {}

  /** The extras of the books among `ids` the viewer may see: those read with their page, else read now. */
  async forBooks(viewer: Viewer, ids: readonly string[]): Promise<Map<string, BookExtras>> {
    const found = new Map<string, BookExtras>();
    for (const id of ids) {
      const read = this.alreadyRead.books.get(id);
      if (read) found.set(id, read);
    }
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length === 0) return found;
    const rows = await this.db
      .select({ id: books.id, ...bookExtrasColumns() })
      .from(books)
      .where(and(inIds(books.id, missing), visibleBooks(viewer, books)));
    for (const { id, ...row } of rows) found.set(id, toBookExtras(row));
    return found;
  }

  /**
   * The series among `ids` whose cover URL answers an image to this viewer (ThumbnailService#forSeries): a
   * stored series cover, else the cover of its first book in reading order when the viewer sees that book.
   * Feeds link covers only for these (issue 22: a link that answers 404 shows as a broken image).
   */
  async seriesWithCovers(viewer: Viewer, ids: readonly string[]): Promise<Set<string>> {
    const found = new Set(ids.filter((id) => this.alreadyRead.seriesWithCover.get(id) === true));
    const missing = ids.filter((id) => !this.alreadyRead.seriesWithCover.has(id));
    if (missing.length === 0) return found;
    const rows = await this.db
      .select({ id: series.id })
      .from(series)
      .where(and(inIds(series.id, missing), seriesHasCoverColumn(viewer)));
    for (const row of rows) found.add(row.id);
    return found;
  }
}
