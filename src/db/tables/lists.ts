/**
 * What users organise the catalog into (docs/DECISIONS.md §Organise and share, §Collections and read lists):
 * collections of series, read lists of books across series, and the ComicInfo story arcs read lists are
 * built from. Collections and read lists are shared by everyone (maintainers write them); who sees which
 * member is decided per request by the catalog query layer, never stored here.
 */
import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { books } from './books';
import { cascadingReference, createdAt, id, updatedAt } from './columns';
import { series } from './series';

/** A smart collection's rule: a saved `POST /series/list` or `POST /books/list` request. */
export interface SmartRule {
  /** Which list the rule is evaluated against. */
  target: 'series' | 'books';
  /** A condition of the list's filter grammar (src/catalog/filters.ts), checked when saved. */
  condition: Record<string, unknown> | null;
  fullTextSearch: string | null;
  /** `<field>,<asc|desc>` of the target list's sort fields. */
  sort: string | null;
}

/**
 * A set of series, in the order given when `ordered`; or, when `rule` is set (a smart collection), whatever
 * the rule's list holds for the reader asking, evaluated on every read.
 */
export const collections = sqliteTable(
  'collections',
  {
    id: id(),
    name: text('name').notNull(),
    summary: text('summary'),
    ordered: integer('ordered', { mode: 'boolean' }).notNull().default(false),
    rule: text('rule', { mode: 'json' }).$type<SmartRule>(),
    /** Shown as a row on everyone's home screen. */
    pinnedToHome: integer('pinned_to_home', { mode: 'boolean' }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // Names are unique regardless of case (Komga), and looked up with the same expression.
  (t) => [uniqueIndex('collections_name_unique').on(sql`lower(${t.name})`)],
);

/** A series in a collection at a position (ascending; gaps allowed). */
export const collectionSeries = sqliteTable(
  'collection_series',
  {
    collectionId: cascadingReference('collection_id', () => collections.id),
    seriesId: cascadingReference('series_id', () => series.id),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.collectionId, t.seriesId] }),
    // A collection's members in order: the member list's page walks it and stops after its rows.
    index('collection_series_order_idx').on(t.collectionId, t.position, t.seriesId),
    // GET /series/{id}/collections.
    index('collection_series_series_idx').on(t.seriesId),
  ],
);

/** An ordered list of books across series (a reading order); `ordered` false lists them by release. */
export const readLists = sqliteTable(
  'read_lists',
  {
    id: id(),
    name: text('name').notNull(),
    summary: text('summary').notNull().default(''),
    ordered: integer('ordered', { mode: 'boolean' }).notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('read_lists_name_unique').on(sql`lower(${t.name})`)],
);

/**
 * A book in a read list at a position (ascending; gaps allowed: a story arc's numbers are positions, and a
 * clashing number goes after the last one, as Komga places them).
 */
export const readListBooks = sqliteTable(
  'read_list_books',
  {
    readListId: cascadingReference('read_list_id', () => readLists.id),
    bookId: cascadingReference('book_id', () => books.id),
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.readListId, t.bookId] }),
    index('read_list_books_order_idx').on(t.readListId, t.position, t.bookId),
    index('read_list_books_book_idx').on(t.bookId),
  ],
);

/**
 * The story arcs a book's ComicInfo names (`StoryArc`/`StoryArcNumber`, zipped): kept per book so a library
 * that opts in later (`importStoryArcReadLists`) builds its read lists from what the last scan read.
 */
export const bookStoryArcs = sqliteTable(
  'book_story_arcs',
  {
    bookId: cascadingReference('book_id', () => books.id),
    name: text('name').notNull(),
    /** The book's place in the arc; null when the file gives none (it is appended). */
    number: integer('number'),
  },
  (t) => [primaryKey({ columns: [t.bookId, t.name] })],
);
