/**
 * How many far round trips a request waits for, one after another (issue 30: a reader on another continent pays
 * each one). The worker's own handler runs with the test's real bindings, each wrapped so that every D1 call
 * (statement or batch), R2 call (LIBRARY, CACHE) and Durable Object stub fetch waits `delayMs` first, as a
 * distant region would; the renderer and the Cache API stay near, as they are in the reader's data center.
 * Every call is recorded with its start and end; the **depth** of a request is the longest chain of calls
 * that each started after the one before it ended, among those that ended before the response was handed
 * back (work deferred with waitUntil is not waited for).
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import worker from '../../worker/index';
import { aroundD1Calls } from '../../src/db/d1-calls';
import { authHeaders, type Credentials } from './http';

export interface FarCall {
  /** `D1`, `R2 LIBRARY get …`, … */
  name: string;
  start: number;
  end: number;
}

export interface TracedResponse {
  status: number;
  headers: Headers;
  body: Uint8Array;
  /** Far calls the response waited for, by start. */
  waited: FarCall[];
  /** Far calls still running (or started) after the response was handed back: deferred work. */
  deferred: FarCall[];
  depth: number;
}

const R2_METHODS = ['get', 'head', 'put', 'list', 'delete', 'createMultipartUpload'];

/** The longest chain of calls each starting after the previous one ended. */
export function sequentialDepth(calls: readonly FarCall[]): number {
  const sorted = [...calls].sort((a, b) => a.start - b.start);
  const chain: number[] = [];
  let deepest = 0;
  sorted.forEach((call, i) => {
    let before = 0;
    for (let j = 0; j < i; j++) {
      const earlier = sorted[j] as FarCall;
      if (earlier.end <= call.start) before = Math.max(before, chain[j] as number);
    }
    chain[i] = before + 1;
    deepest = Math.max(deepest, before + 1);
  });
  return deepest;
}

export function farCallTracer(options: { delayMs?: number; vars?: Record<string, string> } = {}) {
  const delayMs = options.delayMs ?? 20;
  let calls: FarCall[] = [];
  const far = async <T>(name: string, call: () => Promise<T>): Promise<T> => {
    const record: FarCall = { name, start: Date.now(), end: Number.POSITIVE_INFINITY };
    calls.push(record);
    try {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return await call();
    } finally {
      record.end = Date.now();
    }
  };
  const bucket = (label: string, target: R2Bucket): R2Bucket =>
    new Proxy(target, {
      get(object, property) {
        const value = Reflect.get(object, property);
        if (typeof value !== 'function') return value;
        if (!R2_METHODS.includes(String(property))) return value.bind(object);
        return (...args: unknown[]) =>
          far(`R2 ${label} ${String(property)} ${String(args[0])}`, () => value.apply(object, args));
      },
    });
  const namespace = (label: string, target: DurableObjectNamespace): DurableObjectNamespace =>
    new Proxy(target, {
      get(object, property) {
        const value = Reflect.get(object, property);
        if (typeof value !== 'function') return value;
        if (property !== 'get') return value.bind(object);
        return (...args: unknown[]) => {
          const stub = value.apply(object, args) as DurableObjectStub;
          return new Proxy(stub, {
            get(s, member) {
              const m = Reflect.get(s, member);
              if (typeof m !== 'function') return m;
              return (...a: unknown[]) => far(`DO ${label} ${String(member)}`, () => m.apply(s, a));
            },
          });
        };
      },
    });
  const base = env as unknown as Record<string, unknown>;
  const tracedEnv = {
    ...base,
    ...options.vars,
    DB: aroundD1Calls(env.DB, (call, sql) => far(`D1 ${sql.map((s) => s.slice(0, 60)).join(' ; ')}`, call)),
    LIBRARY: bucket('LIBRARY', env.LIBRARY),
    CACHE: bucket('CACHE', env.CACHE),
    EVENT_HUB: namespace('EVENT_HUB', env.EVENT_HUB as unknown as DurableObjectNamespace),
  } as unknown as Env;
  const contexts: ExecutionContext[] = [];

  return {
    env: tracedEnv,
    /** One request through the traced worker, its body read, and the far calls it waited for. */
    async fetch(path: string, init: RequestInit & { auth?: Credentials } = {}): Promise<TracedResponse> {
      await this.settle();
      calls = [];
      const { auth, ...rest } = init;
      const prefixed = ['/api/', '/opds', '/komga/', '/koreader/'].some((prefix) => path.startsWith(prefix));
      const headers = new Headers(rest.headers);
      for (const [name, value] of Object.entries(authHeaders(auth))) headers.set(name, value);
      const ctx = createExecutionContext();
      contexts.push(ctx);
      const request = new Request(`http://longbox.test${prefixed ? path : `/api/v1${path}`}`, { ...rest, headers });
      const response = await worker.fetch(request as Parameters<typeof worker.fetch>[0], tracedEnv, ctx);
      const answered = Date.now();
      const body = new Uint8Array(await response.arrayBuffer());
      const seen = calls;
      const waited = seen.filter((call) => call.end <= answered);
      const deferred = seen.filter((call) => call.end > answered);
      return {
        status: response.status,
        headers: response.headers,
        body,
        waited,
        deferred,
        depth: sequentialDepth(waited),
      };
    },
    /** Waits for the work the requests deferred (waitUntil). */
    async settle() {
      await Promise.all(contexts.splice(0).map((ctx) => waitOnExecutionContext(ctx)));
    },
  };
}
