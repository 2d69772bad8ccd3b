/**
 * The far-readers benchmark's model of distance (bench/far-readers.bench.ts, issue 30): the API worker runs in
 * the reader's colo, its D1 primary, R2 buckets, Durable Objects and queues live in one far region. Every call
 * to those waits `delayMs` before it runs; what lives in the reader's colo (the renderer service, the static
 * assets, the Cache API, and — with read replicas — a D1 replica) is recorded but not delayed.
 *
 * Each call is recorded on the request that made it (the entry, far-readers.ts, says which one that is), with
 * its start and end on a logical clock: one counter for the whole isolate, ticked when a call starts and when
 * its promise settles. "B started after A ended" is then an exact fact of the isolate's event order, not a
 * comparison of workerd timestamps (its clock only moves on I/O). From that, per request:
 * - **counted**: far calls that ended before the response was returned — what the response waited for;
 * - **pending**: far calls still running when the response was returned (not counted);
 * - **after**: calls started after it (`waitUntil` work, a streamed body's reads; not counted);
 * - **depth**: the longest chain of counted far calls in which each starts after the previous one ended.
 *
 * No file under src/ imports this; it only runs in the bench-only worker (never deployed). It has no Node
 * imports, so the workers test project can check it against miniflare's real bindings
 * (test/far-readers/far-calls.test.ts).
 */

export type Placement = 'far' | 'near';

export interface FarCall {
  /** What was called: `DB SELECT users`, `DB session batch[2] …`, `LIBRARY.get`, `EVENT_HUB.subscribe`, `caches.default.match`… */
  label: string;
  placement: Placement;
  /** Logical clock when the call was made and when its promise settled (null: not yet). */
  start: number;
  end: number | null;
  /** Milliseconds since the request began, as workerd's clock tells it (coarse: it moves on I/O only). */
  startMs: number;
  endMs: number | null;
  failed: boolean;
}

/** One request the bench sent, and every call made on its behalf. */
export class RequestRecord {
  readonly calls: FarCall[] = [];
  /** Logical clock when the handler returned its Response; null while it runs. */
  respondedAt: number | null = null;
  readonly deferred: Promise<unknown>[] = [];
  readonly startedMs = Date.now();
  constructor(
    readonly id: string,
    readonly method: string,
    readonly path: string,
  ) {}

  private deferredSettled = true;

  /** Whether everything handed to `waitUntil` has settled and no call is still running. */
  get settled(): boolean {
    return this.deferredSettled && this.calls.every((call) => call.end !== null);
  }

  /** Work the request handed to `waitUntil`. */
  defer(work: Promise<unknown>): void {
    this.deferred.push(work);
    this.deferredSettled = false;
    const count = this.deferred.length;
    Promise.allSettled(this.deferred).then(() => {
      if (this.deferred.length === count) this.deferredSettled = true;
    });
  }
}

export interface FarSettings {
  /** What one far call waits before it runs. 0: no timer at all. */
  delayMs: number;
  /**
   * D1 read replicas near the reader: a read-only statement or batch run through a `withSession()` session
   * is served by one (not delayed), except the first call of a `'first-primary'` session. Writes, and every
   * statement made on the binding itself (no session), go to the primary (D1's rule: without the Sessions
   * API every query runs on the primary).
   */
  replicas: boolean;
}

export class FarCalls {
  private clock = 0;
  settings: FarSettings = { delayMs: 0, replicas: false };
  /** Calls made outside any request (a cron tick, the isolate's own start-up work). */
  unattributed = 0;

  constructor(private readonly current: () => RequestRecord | undefined) {}

  tick(): number {
    this.clock += 1;
    return this.clock;
  }

  /** Runs `call` as one call of the current request: delayed first when it is far. */
  async run<T>(label: string, placement: Placement, call: () => Promise<T>): Promise<T> {
    const record = this.current();
    const entry: FarCall = {
      label,
      placement,
      start: this.tick(),
      end: null,
      startMs: record ? Date.now() - record.startedMs : 0,
      endMs: null,
      failed: false,
    };
    if (record) record.calls.push(entry);
    else this.unattributed += 1;
    const delay = this.settings.delayMs;
    try {
      if (placement === 'far' && delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
      return await call();
    } catch (error) {
      entry.failed = true;
      throw error;
    } finally {
      entry.end = this.tick();
      entry.endMs = record ? Date.now() - record.startedMs : 0;
    }
  }
}

export interface FarReport {
  id: string;
  method: string;
  path: string;
  depth: number;
  /** The counted far calls by level (level n: the calls whose longest chain before them is n − 1 long). */
  levels: string[][];
  counted: FarCall[];
  pending: FarCall[];
  after: FarCall[];
  /** Near calls (renderer, assets, Cache API, replica reads) made before the response. */
  near: FarCall[];
  settled: boolean;
}

/** What the response of `record` waited for (see the module comment); call once the response is returned. */
export function farReport(record: RequestRecord): FarReport {
  const responded = record.respondedAt ?? Number.POSITIVE_INFINITY;
  const before = record.calls.filter((call) => call.start < responded);
  const counted = before.filter((call) => call.placement === 'far' && call.end !== null && call.end < responded);
  const level = chainLevels(counted);
  const depth = Math.max(0, ...level);
  const levels: string[][] = Array.from({ length: depth }, () => []);
  counted.forEach((call, i) => {
    levels[(level[i] ?? 1) - 1]?.push(call.label);
  });
  return {
    id: record.id,
    method: record.method,
    path: record.path,
    depth,
    levels,
    counted,
    pending: before.filter((call) => call.placement === 'far' && (call.end === null || call.end > responded)),
    after: record.calls.filter((call) => call.start > responded),
    near: before.filter((call) => call.placement === 'near'),
    settled: record.settled,
  };
}

/**
 * For each call (in start order), the length of the longest chain ending with it in which every call starts
 * after the previous one ended. The depth is the largest.
 */
export function chainLevels(calls: ReadonlyArray<Pick<FarCall, 'start' | 'end'>>): number[] {
  const level: number[] = [];
  calls.forEach((call, i) => {
    let longest = 0;
    for (let j = 0; j < i; j++) {
      const before = calls[j]!;
      if (before.end !== null && before.end < call.start) longest = Math.max(longest, level[j] ?? 0);
    }
    level.push(longest + 1);
  });
  return level;
}

/** `D1 → LIBRARY.get`, with calls of one level joined by `∥`: how a report reads in a table or a header. */
export function chainText(levels: string[][], separators = { sequence: ' → ', parallel: ' ∥ ' }): string {
  return levels.map((calls) => calls.join(separators.parallel)).join(separators.sequence);
}

// ---------------------------------------------------------------------------------------------------------
// The bindings, wrapped. Each wrapper forwards every member it does not wrap, bound to the native binding.

/** Every other member of a native binding, bound to it (a Proxy's `this` would not be the binding). */
function overriding<T extends object>(target: T, overrides: Record<string | symbol, unknown>): T {
  return new Proxy(target, {
    get(object, property) {
      if (property in overrides) return overrides[property];
      const value = Reflect.get(object, property);
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}

/** Calls of `methods` on `target` go through `far.run` as `${name}.${method}`. */
function aroundMethods<T extends object>(
  target: T,
  name: string,
  methods: readonly string[],
  far: FarCalls,
  placement: Placement,
  wrapResult: (method: string, result: unknown) => unknown = (_method, result) => result,
): T {
  const overrides: Record<string, unknown> = {};
  for (const method of methods) {
    const original = Reflect.get(target, method) as ((...args: unknown[]) => Promise<unknown>) | undefined;
    if (typeof original !== 'function') continue;
    overrides[method] = (...args: unknown[]) =>
      far
        .run(`${name}.${method}`, placement, () => Reflect.apply(original, target, args) as Promise<unknown>)
        .then((result) => wrapResult(method, result));
  }
  return overriding(target, overrides);
}

const R2_CALLS = ['get', 'head', 'put', 'list', 'delete', 'createMultipartUpload'] as const;
const MULTIPART_CALLS = ['uploadPart', 'complete', 'abort'] as const;

export function farBucket(name: string, bucket: R2Bucket, far: FarCalls): R2Bucket {
  const upload = (value: unknown) =>
    value && typeof value === 'object'
      ? aroundMethods(value as R2MultipartUpload, `${name}.upload`, MULTIPART_CALLS, far, 'far')
      : value;
  const wrapped = aroundMethods(bucket, name, R2_CALLS, far, 'far', (method, result) =>
    method === 'createMultipartUpload' ? upload(result) : result,
  );
  // Resuming an upload is local (it only names one); its part uploads and completion are far.
  return overriding(wrapped, {
    resumeMultipartUpload: (key: string, uploadId: string) => upload(bucket.resumeMultipartUpload(key, uploadId)),
  });
}

export function farQueue<T>(name: string, queue: Queue<T>, far: FarCalls): Queue<T> {
  return aroundMethods(queue, name, ['send', 'sendBatch'], far, 'far');
}

/**
 * A Durable Object namespace whose stubs delay every call (fetch or RPC). Making an id or a stub is local;
 * only calls on the stub cross to the object.
 */
export function farNamespace<T extends Rpc.DurableObjectBranded | undefined>(
  name: string,
  namespace: DurableObjectNamespace<T>,
  far: FarCalls,
): DurableObjectNamespace<T> {
  const stub = (value: object) => farStub(name, value, far, 'far');
  return overriding(namespace, {
    get: (...args: unknown[]) => stub(Reflect.apply(namespace.get, namespace, args) as object),
    getByName: (...args: unknown[]) =>
      stub(
        Reflect.apply(
          (namespace as unknown as { getByName: (...args: unknown[]) => unknown }).getByName,
          namespace,
          args,
        ) as object,
      ),
    jurisdiction: (...args: unknown[]) =>
      farNamespace(name, Reflect.apply(namespace.jurisdiction, namespace, args) as DurableObjectNamespace<T>, far),
  });
}

/**
 * An RPC stub (a Durable Object's or a service's) whose methods are calls through `far.run`. On a stub every
 * property names a remote method, `apply` and `then` included, so calls go through Reflect.apply and the
 * stub's own non-function members (`id`, `name`) are passed through.
 */
export function farStub<T extends object>(name: string, target: T, far: FarCalls, placement: Placement): T {
  return new Proxy(target, {
    get(object, property) {
      const value = Reflect.get(object, property);
      if (typeof value !== 'function' || typeof property === 'symbol' || property === 'then') return value;
      return (...args: unknown[]) =>
        far.run(`${name}.${property}`, placement, async () => Reflect.apply(value, object, args));
    },
  });
}

// D1 ------------------------------------------------------------------------------------------------------

interface Statement {
  bind(...values: unknown[]): Statement;
  first(column?: string): Promise<unknown>;
  run(): Promise<unknown>;
  all(): Promise<unknown>;
  raw(options?: unknown): Promise<unknown>;
}
interface D1Session {
  prepare(query: string): Statement;
  batch(statements: Statement[]): Promise<unknown>;
  getBookmark(): string | null;
}
interface D1Like {
  prepare(query: string): Statement;
  batch(statements: Statement[]): Promise<unknown>;
  exec(query: string): Promise<unknown>;
  withSession(constraintOrBookmark?: string): D1Session;
}

/** Where a statement made on the binding or on one session runs: decided per call. */
interface Route {
  /** Null: the binding itself (always the primary). */
  constraint: string | null;
  /** Whether the session has made a call yet (`'first-primary'` sends only its first call to the primary). */
  used: boolean;
}

const WRITE_WORDS =
  /\b(?:INSERT|UPDATE|DELETE|REPLACE\s+INTO|CREATE|DROP|ALTER|VACUUM|REINDEX|ANALYZE|ATTACH|DETACH|PRAGMA|BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)\b/i;

/**
 * Whether SQL only reads: no write keyword outside string literals, quoted identifiers and comments (`replace(`,
 * SQLite's string function, is not `REPLACE INTO`). PRAGMA counts as a write: the conservative side.
 */
export function isReadOnlySql(sql: string): boolean {
  const bare = sql
    .replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, ' ')
    .replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|`[^`]*`|\[[^\]]*\]/g, ' ');
  return !WRITE_WORDS.test(bare);
}

const VERBS = new Set(['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'REPLACE', 'VALUES', 'PRAGMA']);

/**
 * `SELECT users`, `INSERT login_attempts`: the statement's verb and its table, for call lists. Both are read at
 * the top level (outside parentheses), after any `WITH` clause, so a subquery in the column list does not name
 * a statement after its own table.
 */
export function sqlLabel(sql: string): string {
  const tokens = sql
    .replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, ' ')
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/["`[\]]/g, '')
    .match(/\w+|[()]/g);
  let depth = 0;
  let verb: string | undefined;
  let table: string | undefined;
  for (let i = 0; tokens && i < tokens.length && !table; i++) {
    const token = tokens[i]!;
    if (token === '(') depth += 1;
    else if (token === ')') depth -= 1;
    else if (depth === 0) {
      const word = token.toUpperCase();
      if (!verb && VERBS.has(word)) verb = word;
      else if (verb && ['FROM', 'INTO'].includes(word)) table = tokens[i + 1];
      else if (verb === 'UPDATE' && !table) table = token;
    }
  }
  if (!verb) return tokens?.find((token) => /^[a-z]/i.test(token))?.toUpperCase() ?? 'SQL';
  return table && table !== '(' ? `${verb} ${table}` : verb;
}

export function farDatabase(name: string, binding: D1Database, far: FarCalls): D1Database {
  const d1 = binding as unknown as D1Like;
  const originals = new WeakMap<Statement, { statement: Statement; sql: string }>();

  const placement = (route: Route, sql: string[]): Placement => {
    const first = !route.used;
    route.used = true;
    if (!far.settings.replicas || route.constraint === null) return 'far';
    if (route.constraint === 'first-primary' && first) return 'far';
    return sql.every(isReadOnlySql) ? 'near' : 'far';
  };
  const where = (route: Route) => (route.constraint === null ? name : `${name} session`);

  const statementOf = (statement: Statement, sql: string, route: Route): Statement => {
    const call = (run: () => Promise<unknown>) =>
      far.run(`${where(route)} ${sqlLabel(sql)}`, placement(route, [sql]), run);
    const wrapped: Statement = {
      bind: (...values) => statementOf(statement.bind(...values), sql, route),
      first: (column) => call(() => (column === undefined ? statement.first() : statement.first(column))),
      run: () => call(() => statement.run()),
      all: () => call(() => statement.all()),
      raw: (options) => call(() => statement.raw(options)),
    };
    originals.set(wrapped, { statement, sql });
    return wrapped;
  };
  const batchOf =
    (target: { batch(statements: Statement[]): Promise<unknown> }, route: Route) => (statements: Statement[]) => {
      const real = statements.map((s) => originals.get(s) ?? { statement: s, sql: '' });
      const sql = real.map((r) => r.sql);
      const label = `${where(route)} batch[${real.length}] ${[...new Set(sql.map(sqlLabel))].join(', ')}`;
      return far.run(label, placement(route, sql), () => target.batch(real.map((r) => r.statement)));
    };

  const primary: Route = { constraint: null, used: false };
  const wrapped = {
    prepare: (query: string) => statementOf(d1.prepare(query), query, primary),
    batch: batchOf(d1, primary),
    exec: (query: string) => far.run(`${name} exec`, 'far', () => d1.exec(query)),
    withSession: (constraintOrBookmark?: string) => {
      const session = d1.withSession(constraintOrBookmark);
      const route: Route = { constraint: constraintOrBookmark ?? 'first-unconstrained', used: false };
      return {
        prepare: (query: string) => statementOf(session.prepare(query), query, route),
        batch: batchOf(session, route),
        getBookmark: () => session.getBookmark(),
      };
    },
  };
  return overriding(binding, wrapped) as D1Database;
}

// The Cache API -------------------------------------------------------------------------------------------

const CACHE_CALLS = ['match', 'put', 'delete'] as const;

/**
 * Counts the Cache API of this isolate (the reader's colo: near) by wrapping the methods of `caches.default`
 * and of every cache `caches.open` gives, in place: code that reads `globalThis.caches` at any time sees them.
 */
export function countCacheApi(storage: CacheStorage, far: FarCalls): void {
  const count = (cache: Cache, name: string) => {
    for (const method of CACHE_CALLS) {
      const original = cache[method] as (...args: unknown[]) => Promise<unknown>;
      Object.defineProperty(cache, method, {
        configurable: true,
        value: (...args: unknown[]) =>
          far.run(`caches.${name}.${method}`, 'near', () => Reflect.apply(original, cache, args)),
      });
    }
    return cache;
  };
  count(storage.default, 'default');
  const open = storage.open;
  Object.defineProperty(storage, 'open', {
    configurable: true,
    value: async (cacheName: string) => count(await Reflect.apply(open, storage, [cacheName]), `open(${cacheName})`),
  });
}
