/**
 * A read-only reader of SQLite database files held in memory: the schema and the rows of a table b-tree, nothing
 * more (no SQL, no indexes, no writes). Written from the file format's documentation (sqlite.org
 * "Database File Format", fileformat2.html) for KOReader's statistics database (src/reading/koreader-statistics.ts):
 * a WASM SQLite costs the worker 0.7–0.9 MB of .wasm for what this does in a few hundred lines (README design
 * notes, the numbers).
 *
 * Every byte comes from a stranger, so every offset, length and page number is checked before it is used, each
 * page is visited at most once (a b-tree whose pointers loop is an error, not a hang), and a payload may claim no
 * more bytes than the file holds. Anything that does not add up is a `SqliteFileError` whose message says what.
 *
 * What it leaves out, on purpose: the write-ahead log (a `-wal` file beside the database is not part of the upload;
 * the main file holds everything up to the last checkpoint, which SQLite runs when the last connection closes),
 * index b-trees and WITHOUT ROWID tables (a reader of rows by rowid needs neither), and the lock-byte page (only in
 * files above 1 GiB).
 */

/** The file is not a SQLite database, or one this reader cannot read; the message says why, for a person. */
export class SqliteFileError extends Error {
  override name = 'SqliteFileError';
}

/** A value as a record stores it. Integers beyond 2^53 lose precision (none of the rows read here hold one). */
export type SqliteValue = number | string | Uint8Array | null;

/** A row of `sqlite_schema`: a table, index, view or trigger, with the SQL that made it. */
export interface SchemaEntry {
  type: string;
  name: string;
  tableName: string;
  rootPage: number;
  sql: string | null;
}

const MAGIC = 'SQLite format 3\u0000';
const HEADER_SIZE = 100;
const TABLE_INTERIOR = 0x05;
const TABLE_LEAF = 0x0d;

type TextDecoding = (bytes: Uint8Array) => string;

const utf8 = new TextDecoder('utf-8');

/** UTF-16 by hand: the runtime's TextDecoder is only required to know UTF-8. */
const utf16 =
  (littleEndian: boolean): TextDecoding =>
  (bytes) => {
    let text = '';
    for (let i = 0; i + 1 < bytes.length; i += 2) {
      text += String.fromCharCode(littleEndian ? bytes[i]! | (bytes[i + 1]! << 8) : (bytes[i]! << 8) | bytes[i + 1]!);
    }
    return text;
  };

/** A database file: its header read and checked, its pages reachable by number. */
export class SqliteFile {
  readonly pageSize: number;
  /** Bytes of each page the b-trees use (the page less the reserved bytes at its end). */
  readonly usableSize: number;
  readonly pageCount: number;
  /** `PRAGMA user_version`: applications keep their own schema version there (KOReader does). */
  readonly userVersion: number;
  private readonly decodeText: TextDecoding;
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    if (bytes.length < HEADER_SIZE || utf8.decode(bytes.subarray(0, 16)) !== MAGIC) {
      throw new SqliteFileError('not a SQLite database (its first bytes are not "SQLite format 3")');
    }
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const rawPageSize = this.view.getUint16(16);
    this.pageSize = rawPageSize === 1 ? 65_536 : rawPageSize;
    if (this.pageSize < 512 || (this.pageSize & (this.pageSize - 1)) !== 0) {
      throw new SqliteFileError(`its header names an impossible page size (${rawPageSize})`);
    }
    // Read version 1 (rollback journal) or 2 (write-ahead log): the file's own pages are read the same way.
    if (bytes[19]! > 2) throw new SqliteFileError(`it needs a newer SQLite to read (file format ${bytes[19]})`);
    this.usableSize = this.pageSize - bytes[20]!;
    if (this.usableSize < 480) throw new SqliteFileError('its header reserves more of each page than SQLite allows');
    if (bytes[21] !== 64 || bytes[22] !== 32 || bytes[23] !== 32) {
      throw new SqliteFileError('its header holds payload fractions other than the ones SQLite requires');
    }
    if (bytes.length % this.pageSize !== 0) {
      throw new SqliteFileError(
        `it is ${bytes.length} bytes long, not a whole number of its ${this.pageSize}-byte pages (cut short?)`,
      );
    }
    this.pageCount = bytes.length / this.pageSize;
    // The header's own page count is kept only by SQLite 3.7.0 and later, and only valid when its change
    // counter matches the version-valid-for number; a file shorter than it says has lost its end.
    const declaredPages = this.view.getUint32(28);
    if (declaredPages !== 0 && this.view.getUint32(24) === this.view.getUint32(92) && declaredPages > this.pageCount) {
      throw new SqliteFileError(
        `it is cut short: its header counts ${declaredPages} pages, the file holds ${this.pageCount}`,
      );
    }
    this.userVersion = this.view.getInt32(60);
    const encoding = this.view.getUint32(56);
    if (encoding === 1 || encoding === 0) this.decodeText = (b) => utf8.decode(b);
    else if (encoding === 2) this.decodeText = utf16(true);
    else if (encoding === 3) this.decodeText = utf16(false);
    else throw new SqliteFileError(`its header names an unknown text encoding (${encoding})`);
  }

  /** The tables, indexes, views and triggers the database holds (`sqlite_schema`, whose b-tree is page 1). */
  schema(): SchemaEntry[] {
    const entries: SchemaEntry[] = [];
    this.forEachRow(1, (_rowid, values) => {
      const [type, name, tableName, rootPage, sql] = values;
      if (typeof type !== 'string' || typeof name !== 'string') {
        throw new SqliteFileError('its schema table holds a row that is not a schema entry');
      }
      entries.push({
        type,
        name,
        tableName: typeof tableName === 'string' ? tableName : name,
        rootPage: typeof rootPage === 'number' ? rootPage : 0,
        sql: typeof sql === 'string' ? sql : null,
      });
    });
    return entries;
  }

  /**
   * Calls `visit` with each row of the table b-tree rooted at `rootPage`, in rowid order: the rowid and the
   * record's values as stored (a column added later by ALTER TABLE is absent from older rows; an INTEGER PRIMARY KEY
   * column is stored as NULL, its value being the rowid).
   */
  forEachRow(rootPage: number, visit: (rowid: number, values: SqliteValue[]) => void): void {
    const visited = new Set<number>();
    // Each overflow page belongs to one row: a page claimed twice is a damaged (or hostile) file, and refusing it
    // keeps the work of a traversal within the file's size.
    const overflow = new Set<number>();
    // Depth-first over the tree with an explicit stack: a hostile file cannot exhaust the call stack.
    const stack: number[] = [rootPage];
    while (stack.length > 0) {
      const page = stack.pop() as number;
      if (visited.has(page)) throw new SqliteFileError(`its b-tree reaches page ${page} twice (a damaged file)`);
      visited.add(page);
      const start = this.pageStart(page);
      const header = page === 1 ? HEADER_SIZE : 0;
      const kind = this.bytes[start + header];
      const cells = this.u16(start + header + 3);
      if (kind === TABLE_LEAF) {
        const pointers = start + header + 8;
        this.within(pointers + cells * 2, start + this.usableSize, page);
        for (let i = 0; i < cells; i++) {
          const cell = start + this.u16(pointers + i * 2);
          this.within(cell, start + this.usableSize, page);
          const [rowid, values] = this.leafCell(cell, start + this.usableSize, page, overflow);
          visit(rowid, values);
        }
      } else if (kind === TABLE_INTERIOR) {
        const pointers = start + header + 12;
        this.within(pointers + cells * 2, start + this.usableSize, page);
        // Pushed in reverse, so the children are visited left to right: rowid order.
        stack.push(this.u32(start + header + 8));
        for (let i = cells - 1; i >= 0; i--) {
          const cell = start + this.u16(pointers + i * 2);
          this.within(cell + 4, start + this.usableSize, page);
          stack.push(this.u32(cell));
        }
      } else {
        throw new SqliteFileError(`page ${page} should be part of a table but is not (type ${kind})`);
      }
    }
  }

  /** A table leaf cell: payload size, rowid, the payload (its tail in overflow pages), decoded as a record. */
  private leafCell(cell: number, pageEnd: number, page: number, overflow: Set<number>): [number, SqliteValue[]] {
    const [payloadSize, afterSize] = this.varint(cell, pageEnd);
    const [rowid, afterRowid] = this.varint(afterSize, pageEnd);
    if (payloadSize > this.bytes.length) {
      throw new SqliteFileError(`a row on page ${page} claims ${payloadSize} bytes, more than the whole file`);
    }
    const usable = this.usableSize;
    const maxLocal = usable - 35;
    let local = payloadSize;
    if (payloadSize > maxLocal) {
      const minLocal = Math.floor(((usable - 12) * 32) / 255) - 23;
      const k = minLocal + ((payloadSize - minLocal) % (usable - 4));
      local = k <= maxLocal ? k : minLocal;
    }
    this.within(afterRowid + local, pageEnd, page);
    if (local === payloadSize) return [rowid, this.record(this.bytes, this.view, afterRowid, afterRowid + local, page)];
    this.within(afterRowid + local + 4, pageEnd, page);
    if (Math.ceil((payloadSize - local) / (usable - 4)) > this.pageCount - overflow.size) {
      throw new SqliteFileError(`a row on page ${page} claims more overflow pages than the file has left`);
    }
    const payload = new Uint8Array(payloadSize);
    payload.set(this.bytes.subarray(afterRowid, afterRowid + local));
    let filled = local;
    let next = this.u32(afterRowid + local);
    while (filled < payloadSize) {
      if (next === 0) throw new SqliteFileError(`a row on page ${page} ends before its overflow pages do`);
      if (overflow.has(next))
        throw new SqliteFileError(`a row on page ${page} reuses an overflow page (a damaged file)`);
      overflow.add(next);
      const start = this.pageStart(next);
      const take = Math.min(usable - 4, payloadSize - filled);
      payload.set(this.bytes.subarray(start + 4, start + 4 + take), filled);
      filled += take;
      next = this.u32(start);
    }
    return [rowid, this.record(payload, new DataView(payload.buffer), 0, payloadSize, page)];
  }

  /**
   * A record, in `bytes[start, end)`: a header of serial types, then each value in that order. Read in place (most
   * rows are wholly on their page: no copy, no view of their own).
   */
  private record(bytes: Uint8Array, view: DataView, start: number, end: number, page: number): SqliteValue[] {
    const [headerSize, first] = varintOf(bytes, start, end, page);
    const headerEnd = start + headerSize;
    if (headerEnd > end || headerEnd < first) {
      throw new SqliteFileError(`a row on page ${page} has a record header longer than itself`);
    }
    const values: SqliteValue[] = [];
    let at = first;
    let body = headerEnd;
    while (at < headerEnd) {
      const [type, next] = varintOf(bytes, at, headerEnd, page);
      at = next;
      const size = serialSize(type, page);
      if (body + size > end) throw new SqliteFileError(`a row on page ${page} ends inside its values`);
      values.push(this.value(type, view, bytes, body, size));
      body += size;
    }
    return values;
  }

  private value(type: number, view: DataView, bytes: Uint8Array, at: number, size: number): SqliteValue {
    switch (type) {
      case 0:
        return null;
      case 1:
        return view.getInt8(at);
      case 2:
        return view.getInt16(at);
      case 3:
        return (view.getInt8(at) << 16) | view.getUint16(at + 1);
      case 4:
        return view.getInt32(at);
      case 5:
        return view.getInt16(at) * 2 ** 32 + view.getUint32(at + 2);
      case 6:
        return Number(view.getBigInt64(at));
      case 7:
        return view.getFloat64(at);
      case 8:
        return 0;
      case 9:
        return 1;
      default: {
        const raw = bytes.subarray(at, at + size);
        return type % 2 === 1 ? this.decodeText(raw) : raw.slice();
      }
    }
  }

  /** The first byte of page `page` (numbered from 1), which must be in the file. */
  private pageStart(page: number): number {
    if (!Number.isInteger(page) || page < 1 || page > this.pageCount) {
      throw new SqliteFileError(`it points at page ${page}, but holds ${this.pageCount} pages (cut short or damaged)`);
    }
    return (page - 1) * this.pageSize;
  }

  private within(end: number, limit: number, page: number) {
    if (end > limit) throw new SqliteFileError(`page ${page} holds a cell that runs past its end (a damaged file)`);
  }

  private varint(at: number, limit: number): [number, number] {
    return varintOf(this.bytes, at, limit, 0);
  }

  private u16(at: number): number {
    return this.view.getUint16(at);
  }

  private u32(at: number): number {
    return this.view.getUint32(at);
  }
}

/** SQLite's varint: 1–9 bytes, big-endian, 7 bits a byte with the high bit continuing, all 8 bits of a ninth. */
function varintOf(bytes: Uint8Array, at: number, limit: number, page: number): [number, number] {
  let value = 0;
  for (let i = 0; i < 9; i++) {
    if (at + i >= limit) {
      throw new SqliteFileError(page ? `a row on page ${page} is cut short` : 'a cell runs past its page');
    }
    const byte = bytes[at + i]!;
    if (i === 8) return [value * 256 + byte, at + 9];
    value = value * 128 + (byte & 0x7f);
    if (byte < 0x80) return [value, at + i + 1];
  }
  return [value, at + 9];
}

/** Bytes a value of serial type `type` takes in a record's body. */
function serialSize(type: number, page: number): number {
  if (type >= 12) return Math.floor((type - 12) / 2);
  const sizes = [0, 1, 2, 3, 4, 6, 8, 8, 0, 0];
  const size = sizes[type];
  if (size === undefined) throw new SqliteFileError(`a row on page ${page} holds a value of a reserved type (${type})`);
  return size;
}

/**
 * The column names of a `CREATE TABLE` statement, in order, and which of them is the rowid (an `INTEGER PRIMARY KEY`
 * column, stored as NULL in each record). Enough of SQL's grammar for what SQLite itself wrote into its schema:
 * quoted names ("", [], ``), nested parentheses in types and constraints, table constraints after the columns.
 */
export function tableColumns(createSql: string): { columns: string[]; rowidColumn: number | null } {
  const open = createSql.indexOf('(');
  const close = createSql.lastIndexOf(')');
  if (open < 0 || close < open) throw new SqliteFileError('a table of its schema has no column list');
  const definitions: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let current = '';
  for (const char of createSql.slice(open + 1, close)) {
    if (quote) {
      if (char === quote) quote = null;
    } else if (char === '"' || char === "'" || char === '`') quote = char;
    else if (char === '[') quote = ']';
    else if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === ',' && depth === 0) {
      definitions.push(current.trim());
      current = '';
      continue;
    }
    current += char;
  }
  definitions.push(current.trim());
  const columns: string[] = [];
  let rowidColumn: number | null = null;
  for (const definition of definitions) {
    if (/^(CONSTRAINT|PRIMARY|UNIQUE|CHECK|FOREIGN)\b/i.test(definition)) break;
    const match = /^(?:"((?:[^"]|"")*)"|\[([^\]]*)\]|`((?:[^`]|``)*)`|([^\s(]+))\s*(.*)$/s.exec(definition);
    if (!match) continue;
    const name = match[1]?.replaceAll('""', '"') ?? match[2] ?? match[3]?.replaceAll('``', '`') ?? match[4] ?? '';
    const rest = match[5] ?? '';
    if (/^INTEGER\b/i.test(rest) && /\bPRIMARY\s+KEY\b/i.test(rest) && !/\bPRIMARY\s+KEY\s+DESC\b/i.test(rest)) {
      rowidColumn = columns.length;
    }
    columns.push(name);
  }
  return { columns, rowidColumn };
}
