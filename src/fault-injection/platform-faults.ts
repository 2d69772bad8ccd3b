/**
 * Fault injection for the reliability tests (docs/RELIABILITY.md, "Faults"): makes the *platform* misbehave —
 * an R2 read that fails or stalls part-way, a D1 statement refused, the renderer service unreachable — while
 * every line of Longbox runs as deployed. It is installed only when the environment carries a
 * `FAULT_INJECTION` binding, which nothing but a test creates: it is a JavaScript object (a `FaultInjector`) a
 * test hands to the worker's handler with the rest of its real bindings, and no wrangler.toml, `--var` or
 * secret can produce one. Without it `withInjectedFaults` returns the environment it was given, untouched.
 *
 * The wrappers sit where the platform would fail: under Longbox's own D1 retry (src/db/busy-retry.ts), around
 * the R2 bindings' `get` (and the body it returns), `head`, `put` and `delete`, and around the renderer's RPC methods. The test decides
 * which call fails and how; the wrappers only make that failure look like the platform's.
 */

import { aroundD1Calls, routedSession, type StatementTarget } from '../db/d1-calls';

/** How one R2 `get` misbehaves. */
export type R2GetFault =
  /** `get()` itself rejects (R2 unreachable, an internal error). */
  | { kind: 'fail'; error: Error }
  /** The object's body delivers `afterBytes` bytes, then errors (a connection cut mid-transfer). */
  | { kind: 'break'; afterBytes: number; error: Error }
  /** The body delivers `afterBytes` bytes, then nothing more until the reader gives up (cancels). */
  | { kind: 'stall'; afterBytes: number; onCancel?: () => void };

export interface R2GetCall {
  /** The binding's name: LIBRARY (book files) or CACHE (thumbnails, renditions). */
  bucket: 'LIBRARY' | 'CACHE';
  key: string;
  options?: R2GetOptions;
}

export interface R2HeadCall {
  bucket: R2GetCall['bucket'];
  key: string;
}

export interface D1Call {
  /** The SQL of the statement, or of every statement of a batch (one transaction). */
  sql: string[];
}

export interface RendererCall {
  method: string;
}

/**
 * A D1 read replica that lags behind the primary (read replicas: DECISIONS.md §Far readers), as a test sets it
 * up: a second local database holding a copy of the primary taken when the primary's bookmark was
 * `caughtUpTo`. A session started anywhere (`first-unconstrained`), or from a bookmark no newer than that,
 * reads the copy; one started on the primary or from a newer bookmark reads the primary (D1 makes a replica
 * wait until it has caught up with the bookmark; the primary is always that new). A session's writes go to
 * the primary, and its later reads then do too, as D1's sequential consistency requires.
 */
export interface LaggingReplica {
  database: D1Database;
  caughtUpTo: string;
  /** Where each session started reads: for tests to see which did. */
  sessions: Array<{ constraint: string; reads: 'replica' | 'primary' }>;
}

/** What a test decides, call by call; `undefined` lets the call through unchanged. */
export interface FaultInjector {
  r2Get?(call: R2GetCall): R2GetFault | undefined;
  /** An error to reject the R2 `head` with (R2 unreachable). */
  r2Head?(call: R2HeadCall): Error | undefined;
  /** An error to reject the R2 `put` with (R2 unreachable: nothing is stored). */
  r2Put?(call: R2HeadCall): Error | undefined;
  /** An error to reject the R2 `delete` with (R2 unreachable: nothing is deleted); `key`: the first key. */
  r2Delete?(call: R2HeadCall): Error | undefined;
  /** An error to reject the D1 statement or batch with (before it reaches the database: nothing is written). */
  d1?(call: D1Call): Error | undefined;
  /** An error to reject the renderer RPC call with, as an unreachable service binding does. */
  renderer?(call: RendererCall): Error | undefined;
  /** Sessions (`withSession`) read from this replica where D1 would let a replica serve them. */
  replica?: LaggingReplica;
}

interface FaultBindings {
  FAULT_INJECTION?: FaultInjector;
  LIBRARY?: R2Bucket;
  CACHE?: R2Bucket;
  DB?: D1Database;
  RENDERER?: object;
}

const faultyEnvironments = new WeakMap<object, object>();

/** `env` with its platform bindings wrapped when a test installed a `FaultInjector`; otherwise `env` itself. */
export function withInjectedFaults<E extends object>(env: E): E {
  const bindings = env as FaultBindings;
  const injector = bindings.FAULT_INJECTION;
  if (!injector) return env;
  let faulty = faultyEnvironments.get(env);
  if (!faulty) {
    faulty = {
      ...env,
      ...(bindings.LIBRARY ? { LIBRARY: faultyBucket('LIBRARY', bindings.LIBRARY, injector) } : {}),
      ...(bindings.CACHE ? { CACHE: faultyBucket('CACHE', bindings.CACHE, injector) } : {}),
      ...(bindings.DB ? { DB: faultyDatabase(bindings.DB, injector) } : {}),
      ...(bindings.RENDERER ? { RENDERER: faultyService(bindings.RENDERER, injector) } : {}),
    };
    faultyEnvironments.set(env, faulty);
  }
  return faulty as E;
}

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

function faultyBucket(name: R2GetCall['bucket'], bucket: R2Bucket, injector: FaultInjector): R2Bucket {
  const get = async (key: string, options?: R2GetOptions) => {
    const fault = injector.r2Get?.({ bucket: name, key, options });
    if (fault?.kind === 'fail') throw fault.error;
    const object = await bucket.get(key, options);
    if (!fault || !object || !('body' in object)) return object;
    return withBody(object as R2ObjectBody, faultyBody(object.body, fault));
  };
  const head = async (key: string) => {
    const error = injector.r2Head?.({ bucket: name, key });
    if (error) throw error;
    return bucket.head(key);
  };
  const put = async (key: string, ...rest: unknown[]) => {
    const error = injector.r2Put?.({ bucket: name, key });
    if (error) throw error;
    return (bucket.put as (...args: unknown[]) => Promise<R2Object | null>)(key, ...rest);
  };
  const remove = async (keys: string | string[]) => {
    const error = injector.r2Delete?.({ bucket: name, key: typeof keys === 'string' ? keys : (keys[0] ?? '') });
    if (error) throw error;
    return bucket.delete(keys);
  };
  return overriding(bucket, { get, head, put, delete: remove });
}

/** The object's metadata with another body (R2ObjectBody's members are accessors of a native object). */
function withBody(object: R2ObjectBody, body: ReadableStream<Uint8Array>): R2ObjectBody {
  let used = false;
  const take = () => {
    used = true;
    return new Response(body);
  };
  return {
    key: object.key,
    version: object.version,
    size: object.size,
    etag: object.etag,
    httpEtag: object.httpEtag,
    checksums: object.checksums,
    uploaded: object.uploaded,
    httpMetadata: object.httpMetadata,
    customMetadata: object.customMetadata,
    range: object.range,
    storageClass: object.storageClass,
    ssecKeyMd5: object.ssecKeyMd5,
    writeHttpMetadata: (headers: Headers) => object.writeHttpMetadata(headers),
    body,
    get bodyUsed() {
      return used || body.locked;
    },
    arrayBuffer: () => take().arrayBuffer(),
    bytes: async () => new Uint8Array(await take().arrayBuffer()),
    text: () => take().text(),
    json: <T>() => take().json() as Promise<T>,
    blob: () => take().blob(),
  } as R2ObjectBody;
}

/** A byte stream that passes `afterBytes` bytes of `source`, then errors or stalls as the fault says. */
function faultyBody(
  source: ReadableStream<Uint8Array>,
  fault: Exclude<R2GetFault, { kind: 'fail' }>,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let passed = 0;
  let release: () => void = () => {};
  const cancelled = new Promise<void>((resolve) => {
    release = resolve;
  });
  const bytes: UnderlyingByteSource = {
    type: 'bytes',
    async pull(controller) {
      if (passed >= fault.afterBytes) {
        if (fault.kind === 'break') {
          await reader.cancel(fault.error).catch(() => {});
          controller.error(fault.error);
          return;
        }
        await cancelled; // a stall: nothing more until the reader gives up
        return;
      }
      const { done, value } = await reader.read();
      if (done || !value) {
        controller.close();
        return;
      }
      const piece = value.slice(0, Math.min(value.length, fault.afterBytes - passed));
      passed += piece.length;
      controller.enqueue(piece);
    },
    async cancel(reason) {
      if (fault.kind === 'stall') fault.onCancel?.();
      release();
      await reader.cancel(reason).catch(() => {});
    },
  };
  // A byte stream, as R2's own bodies are: page and consumer reads take BYOB readers of it.
  return new ReadableStream(bytes);
}

function faultyDatabase(database: D1Database, injector: FaultInjector): D1Database {
  const sessions = withLaggingReplica(database, injector);
  // Refused before the call reaches the database: nothing of it is written, as when D1 refuses it.
  return aroundD1Calls(sessions, (call, sql) => {
    const error = injector.d1?.({ sql });
    return error ? Promise.reject(error) : call();
  });
}

function faultyService<T extends object>(service: T, injector: FaultInjector): T {
  return new Proxy(service, {
    get(target, property) {
      const value = Reflect.get(target, property);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        const error = injector.renderer?.({ method: String(property) });
        if (error) throw error;
        // Not value.apply(...): on an RPC stub every property, `apply` included, names a remote method.
        return Reflect.apply(value, target, args);
      };
    },
  });
}

const WRITE = /^\s*(insert|update|delete|replace|create|drop|alter|pragma)\b/i;

/**
 * `database` whose sessions read the test's replica, once it has set one up, where D1 could serve them from a
 * lagging replica (LaggingReplica).
 */
function withLaggingReplica(database: D1Database, injector: FaultInjector): D1Database {
  const withSession = (constraint = 'first-unconstrained') => {
    const replica = injector.replica;
    if (!replica) return database.withSession(constraint);
    const fromReplica =
      constraint === 'first-unconstrained' || (constraint !== 'first-primary' && constraint <= replica.caughtUpTo);
    replica.sessions.push({ constraint, reads: fromReplica ? 'replica' : 'primary' });
    const primary = database.withSession(fromReplica ? 'first-primary' : constraint);
    if (!fromReplica) return primary;
    let wrote = false;
    return routedSession<D1DatabaseSession>(
      (sql) => {
        if (sql.some((statement) => WRITE.test(statement))) wrote = true;
        return (wrote ? primary : replica.database) as unknown as StatementTarget;
      },
      () => (wrote ? primary.getBookmark() : replica.caughtUpTo),
    );
  };
  return overriding(database, { withSession });
}
