/**
 * A D1 binding whose every call — a statement's first/run/all/raw, a batch — goes through `around`, which is
 * given the call to make and the SQL it runs (a batch: every statement's). The busy retry
 * (src/db/busy-retry.ts) and the tests' fault injection (src/fault-injection/platform-faults.ts) are two
 * such wrappers; they stack, each seeing the calls of the one above it.
 *
 * The D1 surface is declared locally: this module is also type-checked by projects without the Workers
 * types (the web app reaches src/db through shared schemas).
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

export type AroundD1Call = <T>(call: () => Promise<T>, sql: string[]) => Promise<T>;

export function aroundD1Calls<Binding>(binding: Binding, around: AroundD1Call): Binding {
  const d1 = binding as unknown as D1Like;
  /** The real statement behind each wrapped one (D1's batch() accepts only its own objects), and its SQL. */
  const originals = new WeakMap<Statement, { statement: Statement; sql: string }>();
  const wrap = (statement: Statement, sql: string): Statement => {
    const wrapped: Statement = {
      bind: (...values) => wrap(statement.bind(...values), sql),
      first: (column) => around(() => (column === undefined ? statement.first() : statement.first(column)), [sql]),
      run: () => around(() => statement.run(), [sql]),
      all: () => around(() => statement.all(), [sql]),
      raw: (options) => around(() => statement.raw(options), [sql]),
    };
    originals.set(wrapped, { statement, sql });
    return wrapped;
  };
  const wrapped: D1Like = {
    prepare: (query) => wrap(d1.prepare(query), query),
    batch: (statements) => {
      const real = statements.map((s) => originals.get(s) ?? { statement: s, sql: '' });
      return around(
        () => d1.batch(real.map((r) => r.statement)),
        real.map((r) => r.sql),
      );
    },
    exec: (query) => around(() => d1.exec(query), [query]),
    dump: () => d1.dump?.(),
    withSession: (constraint) => d1.withSession?.(constraint),
  };
  return wrapped as unknown as Binding;
}
