/**
 * What users organise the catalog into (docs/DECISIONS.md §Organise and share, §Collections and read lists):
 * collections of series, read lists of books across series, and the ComicInfo story arcs read lists are
 * built from. Collections and read lists are shared by everyone (maintainers write them); who sees which
 * member is decided per request by the catalog query layer, never stored here.
 */
import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, type SQLiteColumn, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { books } from './books';
import { cascadingReference, createdAt, id, updatedAt } from './columns';
import { series } from './series';
import { users } from './users';

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
 * The columns every list opens with: its id, its name, and whose it is. A list without an owner is shared by
 * everyone (every list made in Longbox); one with an owner is that user's alone, as Kavita's are (what a
 * migration from Kavita brings: docs/DECISIONS.md §Coming from Komga or Kavita), and goes with the user.
 */
const listHead = () => ({
  id: id(),
  name: text('name').notNull(),
  ownerUserId: text('owner_user_id').references(() => users.id, { onDelete: 'cascade' }),
});

/**
 * Names are unique regardless of case (Komga) among the shared lists and among each user's own, and looked up
 * with the same expressions.
 */
const uniqueName = (table: string, owner: SQLiteColumn, name: SQLiteColumn) =>
  uniqueIndex(`${table}_name_unique`).on(sql`coalesce(${owner}, '')`, sql`lower(${name})`);

/**
 * A member table's keys: a member is in a list once; a list's members in order (the member list's page walks
 * it and stops after its rows); and the lists holding a member (GET /series/{id}/collections, /books/{id}/readlists).
 */
function memberKeys(table: string, list: SQLiteColumn, member: SQLiteColumn, position: SQLiteColumn, word: string) {
  return [
    primaryKey({ columns: [list, member] }),
    index(`${table}_order_idx`).on(list, position, member),
    index(`${table}_${word}_idx`).on(member),
  ];
}

/**
 * A set of series, in the order given when `ordered`; or, when `rule` is set (a smart collection), whatever
 * the rule's list holds for the reader asking, evaluated on every read.
 */
export const collections = sqliteTable(
  'collections',
  {
    ...listHead(),
    summary: text('summary'),
    ordered: integer('ordered', { mode: 'boolean' }).notNull().default(false),
    rule: text('rule', { mode: 'json' }).$type<SmartRule>(),
    /** Shown as a row on everyone's home screen. */
    pinnedToHome: integer('pinned_to_home', { mode: 'boolean' }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueName('collections', t.ownerUserId, t.name)],
);

/** A series in a collection at a position (ascending; gaps allowed). */
export const collectionSeries = sqliteTable(
  'collection_series',
  {
    collectionId: cascadingReference('collection_id', () => collections.id),
    seriesId: cascadingReference('series_id', () => series.id),
    position: integer('position').notNull(),
  },
  (t) => memberKeys('collection_series', t.collectionId, t.seriesId, t.position, 'series'),
);

/** An ordered list of books across series (a reading order); `ordered` false lists them by release. */
export const readLists = sqliteTable(
  'read_lists',
  {
    ...listHead(),
    summary: text('summary').notNull().default(''),
    ordered: integer('ordered', { mode: 'boolean' }).notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueName('read_lists', t.ownerUserId, t.name)],
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
  (t) => memberKeys('read_list_books', t.readListId, t.bookId, t.position, 'book'),
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
