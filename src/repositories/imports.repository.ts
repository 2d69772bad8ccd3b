/**
 * What a migration from Komga or Kavita reads and remembers (docs/DECISIONS.md §Coming from Komga or Kavita): the
 * import origins (what each peer id became here, `import_origins`), the catalog's books the peer's files match,
 * and the accounts a peer's users may already have. A batch's writes, gathered from the repositories that own
 * each table, run here as one D1 batch (one transaction): a batch is done whole or not at all.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { books, importOrigins, series, users } from '../db/schema';
import type { ImportKind } from '../db/tables/imports';
import type { Statement } from './catalog-writer.repository';

/** A book the peer had, as the import looks for it here. */
export interface PeerBookCandidate {
  libraryId: string | null;
  /** Relative to its library's root, `/` between folders. */
  path: string | null;
  readerHash: string | null;
  fileSize: number | null;
  fileName: string | null;
}

/** The live books each rule finds for a candidate: none, one, or (at most two shown) several. */
export interface PeerBookHits {
  byPath: Array<{ bookId: string; seriesId: string }>;
  byReaderHash: Array<{ bookId: string; seriesId: string }>;
  bySizeAndName: Array<{ bookId: string; seriesId: string }>;
}

/** A book as imported progress is placed in it. */
export interface ProgressFacts {
  id: string;
  seriesId: string;
  pageCount: number;
  fileFormat: 'cbz' | 'cbr' | 'epub' | 'pdf';
  epubLayout: 'image' | 'reflowable' | null;
  /** The stored Readium index (JSON), when asked for. */
  readiumIndex: unknown;
}

/** `id:seriesId` pairs of at most two books, as the match query returns them. */
function hitsOf(text: string | null): Array<{ bookId: string; seriesId: string }> {
  if (!text) return [];
  return text.split(',').map((pair) => {
    const [bookId, seriesId] = pair.split(':') as [string, string];
    return { bookId, seriesId };
  });
}

export class ImportsRepository {
  constructor(private readonly db: Database) {}

  /** What these peer ids of one kind became here, by peer id. */
  async origins(source: string, kind: ImportKind, foreignIds: readonly string[]): Promise<Map<string, string>> {
    if (foreignIds.length === 0) return new Map();
    const rows = await this.db
      .select({ foreignId: importOrigins.foreignId, longboxId: importOrigins.longboxId })
      .from(importOrigins)
      .where(
        and(
          eq(importOrigins.source, source),
          eq(importOrigins.kind, kind),
          // One JSON parameter however many ids (D1 binds at most 100 parameters).
          sql`${importOrigins.foreignId} IN (SELECT value FROM json_each(${JSON.stringify(foreignIds)}))`,
        ),
      );
    return new Map(rows.map((row) => [row.foreignId, row.longboxId]));
  }

  /**
   * What these peer users became here, by peer id, and whether that account still exists (one statement: the
   * import origins with the accounts they name).
   */
  async userOrigins(source: string, foreignIds: readonly string[]) {
    if (foreignIds.length === 0) return new Map<string, { longboxId: string; living: boolean }>();
    const rows = await this.db
      .select({
        foreignId: importOrigins.foreignId,
        longboxId: importOrigins.longboxId,
        living: sql<boolean>`${users.id} IS NOT NULL`.mapWith(Boolean),
      })
      .from(importOrigins)
      .leftJoin(users, eq(users.id, importOrigins.longboxId))
      .where(
        and(
          eq(importOrigins.source, source),
          eq(importOrigins.kind, 'user'),
          sql`${importOrigins.foreignId} IN (SELECT value FROM json_each(${JSON.stringify(foreignIds)}))`,
        ),
      );
    return new Map(rows.map(({ foreignId, ...origin }) => [foreignId, origin]));
  }

  /** Remembers what peer ids became here; an id remembered already keeps its first answer. */
  remember(
    source: string,
    kind: ImportKind,
    pairs: ReadonlyArray<{ foreignId: string; longboxId: string }>,
    now: string,
  ): Statement[] {
    if (pairs.length === 0) return [];
    const rows = JSON.stringify(pairs.map((p) => [p.foreignId, p.longboxId]));
    return [
      this.db
        .insert(importOrigins)
        .select(
          sql`SELECT ${source}, ${kind}, r.value ->> 0, r.value ->> 1, ${now} FROM json_each(${rows}) r WHERE true`,
        )
        .onConflictDoNothing(),
    ];
  }

  /** Takes back what `remember` wrote for these pairs (what they named could not be stored after all). */
  forget(
    source: string,
    kind: ImportKind,
    pairs: ReadonlyArray<{ foreignId: string; longboxId: string }>,
  ): Statement[] {
    if (pairs.length === 0) return [];
    const rows = JSON.stringify(pairs.map((p) => [p.foreignId, p.longboxId]));
    const named = sql`(${importOrigins.foreignId}, ${importOrigins.longboxId}) IN (SELECT r.value ->> 0, r.value ->> 1 FROM json_each(${rows}) r)`;
    return [
      this.db.delete(importOrigins).where(and(eq(importOrigins.source, source), eq(importOrigins.kind, kind), named)),
    ];
  }

  /** Runs one batch's statements as one D1 batch (one transaction). */
  async run(statements: Statement[]): Promise<void> {
    const [first, ...rest] = statements;
    if (first) await this.db.batch([first, ...rest]);
  }

  /**
   * The live books each candidate's rules find, in one statement: the same path under the library it maps to
   * (`books_library_path_unique`), the same KOReader hash (`books_reader_hash_idx`), the same size and file name
   * (`books_file_size_name_idx`). At most two books per rule are returned: two mean the rule cannot tell.
   */
  async matchBooks(candidates: readonly PeerBookCandidate[]): Promise<PeerBookHits[]> {
    if (candidates.length === 0) return [];
    const rows = JSON.stringify(
      candidates.map((c) => [c.libraryId, c.path, c.readerHash?.toLowerCase() ?? null, c.fileSize, c.fileName]),
    );
    const twoOf = (where: ReturnType<typeof sql>) =>
      sql`(SELECT group_concat(hit) FROM (SELECT b.id || ':' || b.series_id AS hit FROM books b
        WHERE ${where} AND b.deleted_at IS NULL ORDER BY b.id LIMIT 2))`;
    const found = await this.db.all<{
      i: number;
      by_path: string | null;
      by_hash: string | null;
      by_size: string | null;
    }>(
      sql`WITH c AS (SELECT key AS i, value ->> 0 AS library_id, value ->> 1 AS path, value ->> 2 AS reader_hash,
          value ->> 3 AS file_size, value ->> 4 AS file_name FROM json_each(${rows}))
        SELECT c.i,
          ${twoOf(sql`b.library_id = c.library_id AND b.path = (SELECT CASE WHEN l.path = '' THEN c.path
            ELSE l.path || '/' || c.path END FROM libraries l WHERE l.id = c.library_id)`)} AS by_path,
          ${twoOf(sql`b.reader_hash = c.reader_hash`)} AS by_hash,
          ${twoOf(sql`b.file_size = c.file_size AND b.file_name = c.file_name`)} AS by_size
        FROM c ORDER BY c.i`,
    );
    return found.map((row) => ({
      byPath: hitsOf(row.by_path),
      byReaderHash: hitsOf(row.by_hash),
      bySizeAndName: hitsOf(row.by_size),
    }));
  }

  /**
   * What placing imported progress needs of these books: their series, page count and format, and (only for the
   * books in `withReadium`, EPUBs placed by spine item) their Readium index.
   */
  async progressFacts(bookIds: readonly string[], withReadium: readonly string[]) {
    if (bookIds.length === 0) return new Map<string, ProgressFacts>();
    const rows = await this.db
      .select({
        id: books.id,
        seriesId: books.seriesId,
        pageCount: books.pageCount,
        fileFormat: books.fileFormat,
        epubLayout: books.epubLayout,
        readiumIndex:
          sql<unknown>`CASE WHEN ${books.id} IN (SELECT value FROM json_each(${JSON.stringify(withReadium)}))
          THEN ${books.readiumIndex} END`.mapWith(books.readiumIndex),
      })
      .from(books)
      .where(sql`${books.id} IN (SELECT value FROM json_each(${JSON.stringify(bookIds)}))`);
    return new Map<string, ProgressFacts>(rows.map((row) => [row.id, row]));
  }

  /** Which of these series (or books) exist, live. */
  async liveIds(kind: 'series' | 'books', ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const table = kind === 'series' ? series : books;
    const rows = await this.db
      .select({ id: table.id })
      .from(table)
      .where(sql`${table.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)})) AND ${table.deletedAt} IS NULL`);
    return new Set(rows.map((row) => row.id));
  }

  /** The accounts whose e-mail address or (case-insensitive) username is one of these. */
  async accountsNamed(emails: readonly string[], usernames: readonly string[]) {
    if (emails.length === 0 && usernames.length === 0) return [];
    return this.db
      .select({ id: users.id, username: users.username, email: users.email })
      .from(users)
      .where(
        sql`${users.email} IN (SELECT lower(value) FROM json_each(${JSON.stringify(emails)}))
          OR lower(${users.username}) IN (SELECT lower(value) FROM json_each(${JSON.stringify(usernames)}))`,
      );
  }

  /** Which of these users exist. */
  async existingUsers(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .select({ id: users.id })
      .from(users)
      .where(inArray(users.id, sql`(SELECT value FROM json_each(${JSON.stringify(ids)}))`));
    return new Set(rows.map((row) => row.id));
  }
}
