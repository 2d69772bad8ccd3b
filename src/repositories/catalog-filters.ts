/**
 * The filterable fields of series and books (API.md §4 Advanced filtering, DECISIONS.md §Lists) and the
 * SQL each operator means, compiled from a condition tree that src/catalog/filters.ts has already
 * checked. String fields compare case-insensitively (SQLite NOCASE/LIKE fold ASCII); terms (genre, tag,
 * character, team, location) and credits (author, writer, penciller…) are multi-valued (one indexed row
 * per value), so `is` means "has that value" and `isNull` "has none". readStatus is about the viewer.
 * Values are bound parameters, never spliced into the SQL text.
 */
import { and, or, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { books, series } from '../db/schema';
import type { TermKind } from '../db/tables/metadata-values';
import type { Viewer } from './visibility';

export const FILTER_OPERATORS = [
  'is',
  'isNot',
  'isNull',
  'isNotNull',
  'contains',
  'beginsWith',
  'lessThan',
  'greaterThan',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** Operator sets per kind of field (DECISIONS.md §Lists). Text is matched, not ordered. */
export const STRING_OPERATORS: readonly FilterOperator[] = FILTER_OPERATORS.filter(
  (op) => op !== 'lessThan' && op !== 'greaterThan',
);
export const ID_OPERATORS: readonly FilterOperator[] = ['is', 'isNot'];
export const ENUM_OPERATORS: readonly FilterOperator[] = ['is', 'isNot'];
/** Numbers and dates: strict `lessThan`/`greaterThan` (a Komga client's inclusive ones are translated). */
export const ORDERED_OPERATORS: readonly FilterOperator[] = [
  'is',
  'isNot',
  'isNull',
  'isNotNull',
  'lessThan',
  'greaterThan',
];

export const READ_STATUSES = ['unread', 'in_progress', 'read'] as const;
export type ReadStatus = (typeof READ_STATUSES)[number];

/** A checked condition: a field test, or all/any of several. */
export type FilterNode = FilterTest | { allOf: FilterNode[] } | { anyOf: FilterNode[] };

export interface FilterTest {
  field: string;
  operator: FilterOperator;
  /** Absent for isNull/isNotNull; lower-cased for fields with a fixed set of values. */
  value?: string;
}

/**
 * A test that holds exactly for the rows whose id is in `ids` (a SELECT of ids, e.g. the books having a
 * genre). `anyOf` over such tests becomes one `id IN (a UNION ALL b)`: a single list SQLite builds once
 * and drives the row lookups from, where `id IN (a) OR id IN (b)` is evaluated branch by branch.
 */
export class IdSet {
  constructor(
    readonly rowId: SQLWrapper,
    readonly ids: SQL,
  ) {}
}

export type FieldTest = SQL | IdSet;

/** The test as a predicate on the row. */
export function asPredicate(test: FieldTest): SQL {
  return test instanceof IdSet ? sql`${test.rowId} IN (${test.ids})` : test;
}

export interface FilterField {
  operators: readonly FilterOperator[];
  /** When set, `value` must be one of these (compared case-insensitively, passed on lower-cased). */
  values?: readonly string[];
  /** What is true for rows where `field operator value` holds; `isNot` is not derived, fields say it. */
  toSql(operator: FilterOperator, value: string | undefined, viewer: Viewer): FieldTest;
  /** Its tests look the row up in other tables (terms, the viewer's progress) rather than read its columns. */
  readsOtherTables?: boolean;
  /**
   * The form a value must have beyond text: an `integer`, a `number` (both also taken as JSON numbers) or
   * a `date` (YYYY-MM-DD). toSql receives the value checked.
   */
  valueType?: 'integer' | 'number' | 'date';
}

export type FilterFields = Readonly<Record<string, FilterField>>;

/**
 * A compiled condition. `narrowsToIds`: every matching row is in an id list the condition names (the
 * condition is such a list, or all of a set of tests one of which is): a query can start from that list
 * and look the rows up, rather than visit every row.
 */
export interface CompiledCondition {
  where: SQL;
  narrowsToIds: boolean;
}

interface Compiled {
  test: FieldTest;
  narrowsToIds: boolean;
  readsOtherTables: boolean;
}

export function compileFilter(node: FilterNode, fields: FilterFields, viewer: Viewer): CompiledCondition {
  const { test, narrowsToIds } = compileNode(node, fields, viewer);
  return { where: asPredicate(test), narrowsToIds };
}

function compileNode(node: FilterNode, fields: FilterFields, viewer: Viewer): Compiled {
  if ('allOf' in node) {
    const compiled = node.allOf.map((child) => compileNode(child, fields, viewer));
    // SQLite tests a row's conditions in the order written: the row's own columns first, so that
    // lookups in other tables only run for rows those let through.
    const ordered = [...compiled.filter((c) => !c.readsOtherTables), ...compiled.filter((c) => c.readsOtherTables)];
    return {
      test: and(...ordered.map((c) => asPredicate(c.test))) as SQL,
      narrowsToIds: compiled.some((c) => c.narrowsToIds),
      readsOtherTables: compiled.some((c) => c.readsOtherTables),
    };
  }
  if ('anyOf' in node) {
    const compiled = node.anyOf.map((child) => compileNode(child, fields, viewer));
    const test = anyOf(compiled.map((c) => c.test));
    return { test, narrowsToIds: test instanceof IdSet, readsOtherTables: compiled.some((c) => c.readsOtherTables) };
  }
  const field = fields[node.field];
  if (!field) throw new Error(`unchecked filter field '${node.field}'`);
  const test = field.toSql(node.operator, node.value, viewer);
  return { test, narrowsToIds: test instanceof IdSet, readsOtherTables: field.readsOtherTables === true };
}

/** `anyOf`: one id list when every branch is one (UNION ALL: `IN` drops the duplicates), else OR. */
function anyOf(tests: FieldTest[]): FieldTest {
  const [first] = tests;
  if (first instanceof IdSet && tests.every((test) => test instanceof IdSet)) {
    return new IdSet(
      first.rowId,
      sql.join(
        tests.map((test) => (test as IdSet).ids),
        sql` UNION ALL `,
      ),
    );
  }
  return or(...tests.map(asPredicate)) as SQL;
}

// ---- fields ----------------------------------------------------------------------------------------

/** `%`, `_` and the escape character itself are literal in the user's text. */
function likePattern(value: string, mode: 'contains' | 'beginsWith'): string {
  const escaped = value.replace(/[\\%_]/g, (c) => `\\${c}`);
  return mode === 'contains' ? `%${escaped}%` : `${escaped}%`;
}

/** The SQL for a string operator applied to `target` (a column, or `value` of a term row). */
function stringTest(target: SQLWrapper, operator: FilterOperator, value: string | undefined): SQL {
  switch (operator) {
    case 'is':
      return sql`${target} = ${value} COLLATE NOCASE`;
    case 'contains':
      return sql`${target} LIKE ${likePattern(value ?? '', 'contains')} ESCAPE '\\'`;
    case 'beginsWith':
      return sql`${target} LIKE ${likePattern(value ?? '', 'beginsWith')} ESCAPE '\\'`;
    default:
      throw new Error(`stringTest does not handle ${operator}`);
  }
}

/** A nullable text column; an empty string counts as null, and `isNot` keeps rows without a value. */
function stringColumn(column: SQLWrapper): FilterField {
  return {
    operators: STRING_OPERATORS,
    toSql(operator, value) {
      if (operator === 'isNull') return sql`(${column} IS NULL OR ${column} = '')`;
      if (operator === 'isNotNull') return sql`(${column} IS NOT NULL AND ${column} <> '')`;
      if (operator === 'isNot') return sql`(${column} IS NULL OR ${column} <> ${value} COLLATE NOCASE)`;
      return stringTest(column, operator, value);
    },
  };
}

function idColumn(column: SQLWrapper): FilterField {
  return {
    operators: ID_OPERATORS,
    toSql: (operator, value) => (operator === 'is' ? sql`${column} = ${value}` : sql`${column} <> ${value}`),
  };
}

/**
 * A nullable number or date (`measure`, NULL when the row has none), compared as such: `isNot` keeps rows
 * without a value, as stringColumn's does and as Komga's ageRating does; the ordered tests never match them.
 */
function orderedField(measure: SQL, valueType: 'integer' | 'number' | 'date'): FilterField {
  return {
    operators: ORDERED_OPERATORS,
    valueType,
    toSql(operator, text) {
      const value = valueType === 'date' ? text : Number(text);
      switch (operator) {
        case 'isNull':
          return sql`${measure} IS NULL`;
        case 'isNotNull':
          return sql`${measure} IS NOT NULL`;
        case 'isNot':
          return sql`(${measure} IS NULL OR ${measure} <> ${value})`;
        case 'lessThan':
          return sql`${measure} < ${value}`;
        case 'greaterThan':
          return sql`${measure} > ${value}`;
        default:
          return sql`${measure} = ${value}`;
      }
    },
  };
}

/**
 * A book's release date as Komga reads it (komga.mappers.ts releaseDate): its year with the month and day
 * it states, the first of each that is missing; none without a year. Text in YYYY-MM-DD orders as dates do.
 */
const bookReleaseDate = sql`(CASE WHEN ${books.year} IS NULL THEN NULL ELSE printf('%04d-%02d-%02d', ${books.year}, coalesce(${books.month}, 1), coalesce(${books.day}, 1)) END)`;

/**
 * A series is complete when its total book count is known and equals the live books it has (Komga's
 * rule); incomplete when the total is known and differs. A series without a total is neither.
 */
const seriesCompletion = (value: string): SQL =>
  value === 'true'
    ? sql`(${series.totalBookCount} IS NOT NULL AND ${series.totalBookCount} = ${series.bookCount})`
    : sql`(${series.totalBookCount} IS NOT NULL AND ${series.totalBookCount} <> ${series.bookCount})`;

/** Which of a book's uploaded covers `customCover` asks about (covers.selected). */
export const CUSTOM_COVER_VALUES = ['any', 'selected', 'unselected'] as const;

/**
 * Books with an uploaded cover: any, the selected one, or one not selected (covers_book_idx). The
 * generated cover is not a row; it shows while no uploaded cover is selected.
 */
const booksWithCustomCover = (value: string): FieldTest => {
  const selected = value === 'any' ? sql`` : sql` AND c.selected = ${value === 'selected' ? 1 : 0}`;
  return new IdSet(books.id, sql`SELECT c.book_id FROM covers c WHERE c.book_id IS NOT NULL${selected}`);
};

/** The series carrying a sharing tag (Komga: sharing label) whose name passes the test (name index, NOCASE). */
const sharingTagField = (): FilterField =>
  multiValuedField(
    series.id,
    sql.raw('l.name'),
    (test) =>
      sql`SELECT ssl.series_id FROM sharing_labels l JOIN series_sharing_labels ssl ON ssl.label_id = l.id WHERE ${test}`,
  );

/**
 * A multi-valued field of a series or book (a term kind, the credits): `owners(test)` selects the ids of
 * the owners having a value that passes `test` on `value`. `is` means "has that value", `isNot` "has not",
 * `isNull` "has none". Each owners query reads an index that starts with the value (NOCASE).
 */
function multiValuedField(ownerId: SQLWrapper, value: SQL, owners: (test: SQL) => SQL): FilterField {
  return {
    operators: STRING_OPERATORS,
    readsOtherTables: true,
    toSql(operator, text) {
      if (operator === 'isNull') return sql`${ownerId} NOT IN (${owners(sql`1`)})`;
      if (operator === 'isNotNull') return new IdSet(ownerId, owners(sql`1`));
      if (operator === 'isNot') return sql`${ownerId} NOT IN (${owners(stringTest(value, 'is', text))})`;
      return new IdSet(ownerId, owners(stringTest(value, operator, text)));
    },
  };
}

/** Genre, tag, character, team or location of a series or book. */
function termField(kind: TermKind, owner: 'series' | 'book'): FilterField {
  return owner === 'series'
    ? multiValuedField(
        series.id,
        sql.raw('st.value'),
        (test) => sql`SELECT st.series_id FROM series_terms st WHERE st.kind = ${kind} AND ${test}`,
      )
    : multiValuedField(
        books.id,
        sql.raw('bt.value'),
        (test) => sql`SELECT bt.book_id FROM book_terms bt WHERE bt.kind = ${kind} AND ${test}`,
      );
}

/**
 * A person credited on a series or book, in any role (`author`) or in one (`writer`, `penciller`…): the
 * credit indexes (`series_authors`, `book_authors`) by name, then role.
 */
function authorField(owner: 'series' | 'book', role?: string): FilterField {
  const inRole = role ? sql` AND a.role = ${role}` : sql``;
  return owner === 'series'
    ? multiValuedField(
        series.id,
        sql.raw('a.name'),
        (test) => sql`SELECT a.series_id FROM series_authors a WHERE ${test}${inRole}`,
      )
    : multiValuedField(
        books.id,
        sql.raw('a.name'),
        (test) => sql`SELECT a.book_id FROM book_authors a WHERE ${test}${inRole}`,
      );
}

/** Filter fields of the credits: `author` (any role) and one per ComicInfo role, named as API.md §4 lists them. */
export const AUTHOR_ROLE_FIELDS = {
  writer: 'writer',
  penciller: 'penciller',
  inker: 'inker',
  colorist: 'colorist',
  letterer: 'letterer',
  coverArtist: 'cover',
  editor: 'editor',
  translator: 'translator',
} as const;

function metadataFields(owner: 'series' | 'book'): FilterFields {
  return {
    genre: termField('genre', owner),
    tag: termField('tag', owner),
    character: termField('character', owner),
    team: termField('team', owner),
    location: termField('location', owner),
    author: authorField(owner),
    ...Object.fromEntries(Object.entries(AUTHOR_ROLE_FIELDS).map(([field, role]) => [field, authorField(owner, role)])),
  };
}

function enumField(
  values: readonly string[],
  is: (value: string, viewer: Viewer) => FieldTest,
  readsOtherTables = false,
): FilterField {
  return {
    operators: ENUM_OPERATORS,
    values,
    readsOtherTables,
    toSql: (operator, value, viewer) =>
      operator === 'is' ? is(value as string, viewer) : sql`NOT (${asPredicate(is(value as string, viewer))})`,
  };
}

/**
 * A series' read state comes from the viewer's per-series counts (series_read_progress, kept in step with
 * every progress and book change: docs/ARCHITECTURE.md §Series read state), one index range of the user's
 * rows instead of their progress rows joined to books and grouped by series on every request.
 */
const seriesWithProgress = (viewer: Viewer) =>
  sql`SELECT srp.series_id FROM series_read_progress srp WHERE srp.user_id = ${viewer.userId}`;

/** Series whose live books are all completed (and that have one): as many read as the series has live books. */
const seriesRead = (viewer: Viewer) =>
  sql`SELECT srp.series_id FROM series_read_progress srp JOIN series rs ON rs.id = srp.series_id
    WHERE srp.user_id = ${viewer.userId} AND srp.read_count = rs.book_count`;

/** Series read state: read = every live book completed; unread = no progress on any. */
function seriesReadStatus(status: ReadStatus, viewer: Viewer): FieldTest {
  if (status === 'unread') return sql`${series.id} NOT IN (${seriesWithProgress(viewer)})`;
  if (status === 'read') return new IdSet(series.id, seriesRead(viewer));
  return sql`(${series.id} IN (${seriesWithProgress(viewer)}) AND ${series.id} NOT IN (${seriesRead(viewer)}))`;
}

/** Book read state: read = completed, in_progress = progress not completed, unread = none. */
function bookReadStatus(status: ReadStatus, viewer: Viewer): FieldTest {
  const progress = sql`SELECT rp.book_id FROM read_progress rp WHERE rp.user_id = ${viewer.userId}`;
  if (status === 'unread') return sql`${books.id} NOT IN (${progress})`;
  return new IdSet(books.id, sql`${progress} AND rp.completed = ${status === 'read' ? 1 : 0}`);
}

/**
 * Membership of a collection (series) or read list (books), Komga's `collectionId`/`readListId`: the list's
 * member rows, read from its primary key. An unknown list has none, so `is` matches nothing; hidden members
 * stay out as in every list, since the list's query applies the viewer's visibility to the rows it returns.
 * A smart collection has no member rows of its own (the Komga translator puts its rule in its place).
 */
function listMemberField(memberId: SQLWrapper, members: (listId: string) => SQL): FilterField {
  return {
    operators: ID_OPERATORS,
    readsOtherTables: true,
    toSql: (operator, value) =>
      operator === 'is'
        ? new IdSet(memberId, members(value as string))
        : sql`${memberId} NOT IN (${members(value as string)})`,
  };
}

const collectionMembers = listMemberField(
  series.id,
  (id) => sql`SELECT cs.series_id FROM collection_series cs WHERE cs.collection_id = ${id}`,
);

const readListMembers = listMemberField(
  books.id,
  (id) => sql`SELECT rb.book_id FROM read_list_books rb WHERE rb.read_list_id = ${id}`,
);

export const SERIES_FILTER_FIELDS: FilterFields = {
  libraryId: idColumn(series.libraryId),
  ...metadataFields('series'),
  status: stringColumn(series.status),
  publisher: stringColumn(series.publisher),
  imprint: stringColumn(series.imprint),
  language: stringColumn(series.language),
  name: stringColumn(series.title),
  readStatus: enumField(READ_STATUSES, (value, viewer) => seriesReadStatus(value as ReadStatus, viewer), true),
  collectionId: collectionMembers,
  titleSort: stringColumn(series.titleSort),
  ageRating: orderedField(sql`${series.ageRating}`, 'integer'),
  year: orderedField(sql`${series.year}`, 'integer'),
  completion: enumField(['true', 'false'], seriesCompletion),
  sharingTag: sharingTagField(),
};

export const BOOK_FILTER_FIELDS: FilterFields = {
  libraryId: idColumn(books.libraryId),
  seriesId: idColumn(books.seriesId),
  ...metadataFields('book'),
  title: stringColumn(books.title),
  publisher: stringColumn(books.publisher),
  imprint: stringColumn(books.imprint),
  language: stringColumn(books.language),
  format: stringColumn(books.format),
  fileFormat: enumField(books.fileFormat.enumValues, (value) => sql`${books.fileFormat} = ${value}`),
  isbn: stringColumn(books.isbn),
  readStatus: enumField(READ_STATUSES, (value, viewer) => bookReadStatus(value as ReadStatus, viewer), true),
  hasError: enumField(['true', 'false'], (value) =>
    value === 'true' ? sql`${books.analysisError} IS NOT NULL` : sql`${books.analysisError} IS NULL`,
  ),
  readListId: readListMembers,
  titleSort: stringColumn(books.titleSort),
  ageRating: orderedField(sql`${books.ageRating}`, 'integer'),
  numberSort: orderedField(sql`${books.numberSort}`, 'number'),
  releaseDate: orderedField(bookReleaseDate, 'date'),
  customCover: enumField(CUSTOM_COVER_VALUES, booksWithCustomCover, true),
};
