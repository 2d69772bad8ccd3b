/**
 * Retries D1 calls that SQLite refused with SQLITE_BUSY. Under `npm start` two workerd processes (the
 * API and the ingest consumers, issue 11 point 3) open the same local D1 file; SQLite's locks keep it
 * consistent (WAL: readers never wait), but a write that meets the other process's write transaction
 * fails at once with "database is locked" instead of waiting. A refused statement or batch changed
 * nothing (a batch is one transaction), so running it again is safe. Deployed D1 has one writer and
 * never answers SQLITE_BUSY; there this wrapper only forwards.
 */

const ATTEMPTS = 50;
const FIRST_DELAY_MS = 2;
const MAX_DELAY_MS = 100;

const isBusy = (error: unknown) => /SQLITE_BUSY|database is locked/.test(String(error));

async function retrying<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1, delay = FIRST_DELAY_MS; ; attempt++, delay = Math.min(delay * 2, MAX_DELAY_MS)) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= ATTEMPTS || !isBusy(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay + Math.random() * delay));
    }
  }
}

/** The real statements behind wrapped ones: D1's batch() accepts only its own objects. */
const originals = new WeakMap<D1PreparedStatement, D1PreparedStatement>();

function wrapStatement(statement: D1PreparedStatement): D1PreparedStatement {
  const wrapped = {
    bind: (...values: unknown[]) => wrapStatement(statement.bind(...values)),
    first: (column?: string) => retrying(() => (column === undefined ? statement.first() : statement.first(column))),
    run: () => retrying(() => statement.run()),
    all: () => retrying(() => statement.all()),
    raw: (options?: { columnNames?: boolean }) => retrying(() => statement.raw(options as { columnNames: true })),
  } as unknown as D1PreparedStatement;
  originals.set(wrapped, statement);
  return wrapped;
}

export function retryWhenBusy(d1: D1Database): D1Database {
  // Not every workers-types version declares these; they are forwarded untouched either way.
  const rest = d1 as unknown as { dump?: () => unknown; withSession?: (constraint?: string) => unknown };
  return {
    prepare: (query: string) => wrapStatement(d1.prepare(query)),
    batch: (statements: D1PreparedStatement[]) =>
      retrying(() => d1.batch(statements.map((s) => originals.get(s) ?? s))),
    exec: (query: string) => retrying(() => d1.exec(query)),
    dump: () => rest.dump?.(),
    withSession: (constraint?: string) => rest.withSession?.(constraint),
  } as unknown as D1Database;
}
