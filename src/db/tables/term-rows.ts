/**
 * The rows a series or a book keeps of its multi-valued metadata, one table each per owner: its terms
 * (genres, tags, characters, teams, locations) and its author credits. Both owners index them the same way,
 * so the columns and keys are written once here.
 */
import { type SQL, sql } from 'drizzle-orm';
import { type AnySQLiteColumn, index, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { cascadingReference } from './columns';
import { TERM_KINDS } from './metadata-values';

const termColumns = () => ({
  kind: text('kind', { enum: TERM_KINDS }).notNull(),
  value: text('value').notNull(),
});

const creditColumns = () => ({
  name: text('name').notNull(),
  role: text('role').notNull(),
});

/**
 * One row per owner, kind and value. Filters compare terms with `= ? COLLATE NOCASE`, which only a NOCASE
 * index can serve; the owner id makes the list of matching owners an index-only read.
 */
const termKeys = (indexName: string, owner: AnySQLiteColumn, t: { kind: AnySQLiteColumn; value: AnySQLiteColumn }) => [
  primaryKey({ columns: [owner, t.kind, t.value] }),
  index(indexName).on(t.kind, nocase(t.value), owner),
];

/** One row per owner, name and role; `name = ? COLLATE NOCASE` (and a role) → the owners credited, index-only. */
const creditKeys = (indexName: string, owner: AnySQLiteColumn, t: { name: AnySQLiteColumn; role: AnySQLiteColumn }) => [
  primaryKey({ columns: [owner, t.name, t.role] }),
  index(indexName).on(nocase(t.name), t.role, owner),
];

const nocase = (column: AnySQLiteColumn): SQL => sql`${column} COLLATE NOCASE`;

/** Whose rows: the owner's id column (`bookId`, `book_id`) and the column it references. */
interface Owner<K extends string> {
  key: K;
  column: string;
  references: () => AnySQLiteColumn;
}

const ownerColumn = <K extends string>(owner: Owner<K>) =>
  ({ [owner.key]: cascadingReference(owner.column, owner.references) }) as Record<
    K,
    ReturnType<typeof cascadingReference>
  >;

/** `<prefix>_terms`: the owner's terms, one row each. */
export const termsTable = <N extends string, K extends string>(name: N, owner: Owner<K>) =>
  sqliteTable(name, { ...ownerColumn(owner), ...termColumns() }, (t) =>
    termKeys(`${name}_value_nocase_idx`, t[owner.key] as AnySQLiteColumn, t),
  );

/** `<prefix>_authors`: the owner's author credits, one row each. */
export const creditsTable = <N extends string, K extends string>(name: N, owner: Owner<K>) =>
  sqliteTable(name, { ...ownerColumn(owner), ...creditColumns() }, (t) =>
    creditKeys(`${name}_name_nocase_idx`, t[owner.key] as AnySQLiteColumn, t),
  );
