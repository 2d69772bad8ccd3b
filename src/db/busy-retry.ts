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

/**
 * The D1 surface wrapped here, declared locally: this module is also type-checked by projects without
 * the Workers types (the web app reaches src/db through shared schemas).
 */
interface Statement {
  bind(...values: unknown[]): Statement;
  first(column?: string): Promise<unknown>;
  run(): Promise<unknown>;
  all(): Promise<unknown>;
  raw(options?: unknown): Promise<unknown>;
}
interface D1Like {
  prepare(query: string): Statement;
  batch(statements: Statement[]): Promise<unknown>;
  exec(query: string): Promise<unknown>;
  dump?: () => unknown;
  withSession?: (constraint?: string) => unknown;
}

/** The real statements behind wrapped ones: D1's batch() accepts only its own objects. */
const originals = new WeakMap<Statement, Statement>();

function wrapStatement(statement: Statement): Statement {
  const wrapped: Statement = {
    bind: (...values) => wrapStatement(statement.bind(...values)),
    first: (column) => retrying(() => (column === undefined ? statement.first() : statement.first(column))),
    run: () => retrying(() => statement.run()),
    all: () => retrying(() => statement.all()),
    raw: (options) => retrying(() => statement.raw(options)),
  };
  originals.set(wrapped, statement);
  return wrapped;
}

export function retryWhenBusy<Binding>(binding: Binding): Binding {
  const d1 = binding as unknown as D1Like;
  const wrapped: D1Like = {
    prepare: (query) => wrapStatement(d1.prepare(query)),
    batch: (statements) => retrying(() => d1.batch(statements.map((s) => originals.get(s) ?? s))),
    exec: (query) => retrying(() => d1.exec(query)),
    dump: () => d1.dump?.(),
    withSession: (constraint) => d1.withSession?.(constraint),
  };
  return wrapped as unknown as Binding;
}
