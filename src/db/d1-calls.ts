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
  withSession?: (constraint?: string) => SessionLike;
}
/** A D1 session (read replication's Sessions API): statements and batches, and the bookmark it reached. */
interface SessionLike {
  prepare(query: string): Statement;
  batch(statements: Statement[]): Promise<unknown>;
  getBookmark(): string | null;
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
  const batchOf =
    (target: { batch(statements: Statement[]): Promise<unknown> }) =>
    (statements: Statement[]): Promise<unknown> => {
      const real = statements.map((s) => originals.get(s) ?? { statement: s, sql: '' });
      return around(
        () => target.batch(real.map((r) => r.statement)),
        real.map((r) => r.sql),
      );
    };
  const wrapped: D1Like = {
    prepare: (query) => wrap(d1.prepare(query), query),
    batch: batchOf(d1),
    exec: (query) => around(() => d1.exec(query), [query]),
    dump: () => d1.dump?.(),
    // A session's calls go through `around` too (read replicas: db/read-session.ts).
    withSession: (constraint) => {
      const session = (d1.withSession as NonNullable<D1Like['withSession']>)(constraint);
      return {
        prepare: (query) => wrap(session.prepare(query), query),
        batch: batchOf(session),
        getBookmark: () => session.getBookmark(),
      };
    },
  };
  return wrapped as unknown as Binding;
}

/** Where a routed session's statements run: a database or a session that prepares and batches them. */
export interface StatementTarget {
  prepare(query: string): Statement;
  batch(statements: Statement[]): Promise<unknown>;
}

/** A statement of a routed session: its SQL and bound values, prepared where it runs. */
interface Unprepared {
  sql: string;
  values: unknown[];
}

const UNPREPARED = Symbol('unprepared statement');

/**
 * A D1 session whose statements are prepared only when they run, on the target `route` chooses for their SQL
 * (one statement's, or every statement's of a batch). The fault-injection seam stands a lagging read replica
 * in with it (src/fault-injection/platform-faults.ts).
 */
export function routedSession<Session>(route: (sql: string[]) => StatementTarget, getBookmark: () => string | null) {
  const prepared = (target: StatementTarget, statement: Unprepared) =>
    target.prepare(statement.sql).bind(...statement.values);
  const statement = (unprepared: Unprepared): Statement => {
    const run = <T>(call: (real: Statement) => Promise<T>) => call(prepared(route([unprepared.sql]), unprepared));
    const made: Statement & { [UNPREPARED]: Unprepared } = {
      bind: (...values) => statement({ sql: unprepared.sql, values }),
      first: (column) => run((real) => (column === undefined ? real.first() : real.first(column))),
      run: () => run((real) => real.run()),
      all: () => run((real) => real.all()),
      raw: (options) => run((real) => real.raw(options)),
      [UNPREPARED]: unprepared,
    };
    return made;
  };
  const session: SessionLike = {
    prepare: (sql) => statement({ sql, values: [] }),
    batch: (statements) => {
      const unprepared = statements.map((s) => (s as Statement & { [UNPREPARED]: Unprepared })[UNPREPARED]);
      const target = route(unprepared.map((s) => s.sql));
      return target.batch(unprepared.map((s) => prepared(target, s)));
    },
    getBookmark,
  };
  return session as unknown as Session;
}
