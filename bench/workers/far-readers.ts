/**
 * Bench-only entry of the API worker for `npm run bench -- far-readers` (issue 30): Longbox's own worker
 * (worker/index.ts, unchanged) behind a simulated distance (far-calls.ts). Nothing under src/ imports it and no
 * deployment can reach it: its wrangler config is derived from wrangler.toml by the bench into a throwaway
 * source snapshot (bench/lib/far-readers/config.mjs), never written into the repository, and no var or secret
 * switches the shim on in the real entry.
 *
 * - The bindings are wrapped once per isolate (once per environment object workerd hands in, which is one
 *   per isolate), so every isolate cache keyed by the environment or a binding (the configuration, the drizzle
 *   instance per D1 binding, prepared statements, the server secret) behaves as without the shim.
 * - Each request runs inside an AsyncLocalStorage scope holding its record, so every call is attributed to
 *   the request that made it, including the calls of its `waitUntil` work. `node:async_hooks` is there without
 *   any flag at Longbox's compatibility date (2026-11-01 is after wrangler's NODEJS_COMPAT_DEFAULT_ON_DATE,
 *   2026-08-04: nodejs_compat is on by default); the derived config adds `nodejs_als` anyway, so the entry keeps
 *   working should wrangler.toml ever opt out with `no_nodejs_compat`. With nodejs_compat on, the flag changes
 *   nothing: the same global names, `process` and `Buffer` as under wrangler.toml (checked on workerd).
 * - Every response gets `X-Far-Request` (the record's id), `X-Far-Depth`, `X-Far-Calls` (the counted far
 *   calls by level, ASCII) and `X-Far-Isolate` (an id made at this isolate's first response: wrangler may reload the
 *   worker mid-run — another worker of its dev registry came or went — and a new isolate has neither the
 *   settings below nor the warm caches a row's samples expect); `GET /__far/requests/{id}?settled=<ms>` gives the whole record once the request's
 *   `waitUntil` work and calls have settled (waiting up to that long; `settled` says whether they had): counted,
 *   pending and later calls.
 * - `POST /__far/settings` `{delayMs, replicas, vars}` changes the simulated distance and presents the worker
 *   an environment with those LONGBOX_* variables set (as `--var` would; each variant is one environment
 *   object for the isolate's life), so one server measures at 0 and 100 ms, with and without the edge page
 *   cache and read replicas.
 *
 * Not wrapped: the Durable Objects' own bindings (the runtime gives them the raw environment) and the
 * consumers worker (another process). Calls made outside any request (a cron tick) are delayed but counted
 * only as `unattributed`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import longbox from '../../worker/index';
import {
  chainText,
  countCacheApi,
  FarCalls,
  type FarSettings,
  farBucket,
  farDatabase,
  farNamespace,
  farQueue,
  farReport,
  farStub,
  RequestRecord,
} from './far-calls';

export { EventHub, LibraryScan, TaskRunner } from '../../worker/index';

const requests = new AsyncLocalStorage<RequestRecord>();
const far = new FarCalls(() => requests.getStore());

/** Every binding of wrangler.toml, by what a call to it costs. A binding missing here stops the bench. */
const BINDINGS = {
  d1: ['DB'],
  r2: ['LIBRARY', 'CACHE'],
  durableObjects: ['LIBRARY_SCAN', 'TASK_RUNNER', 'EVENT_HUB'],
  queues: ['BOOK_WORK', 'RELEASE_POLL'],
  /** In the reader's colo: the native-image worker and the static assets. Counted, not delayed. */
  nearServices: ['RENDERER', 'ASSETS'],
  /** Not something one calls. */
  values: ['CF_VERSION_METADATA'],
} as const;
const KNOWN = new Set<string>(Object.values(BINDINGS).flat());

type Bindings = Record<string, unknown>;

/** The wrapped bindings, once per environment object; and each variant's environment, once per variant. */
const wrappedEnvironments = new WeakMap<object, { bindings: Bindings; variants: Map<string, Env> }>();
let environmentsSeen = 0;
let vars: Record<string, string> = {};
let cacheApiCounted = false;

function wrapBindings(raw: Bindings): Bindings {
  const unknown = Object.entries(raw)
    .filter(([key, value]) => typeof value !== 'string' && !KNOWN.has(key))
    .map(([key]) => key);
  if (unknown.length > 0) {
    throw new Error(
      `far-readers shim: binding(s) ${unknown.join(', ')} not modelled; say in bench/workers/far-readers.ts whether a call to each is far or near`,
    );
  }
  const wrapped: Bindings = {};
  const present = (name: string) => raw[name] !== undefined;
  for (const name of BINDINGS.d1.filter(present)) wrapped[name] = farDatabase(name, raw[name] as D1Database, far);
  for (const name of BINDINGS.r2.filter(present)) wrapped[name] = farBucket(name, raw[name] as R2Bucket, far);
  for (const name of BINDINGS.durableObjects.filter(present)) {
    wrapped[name] = farNamespace(name, raw[name] as DurableObjectNamespace, far);
  }
  for (const name of BINDINGS.queues.filter(present)) wrapped[name] = farQueue(name, raw[name] as Queue, far);
  for (const name of BINDINGS.nearServices.filter(present)) {
    wrapped[name] = farStub(name, raw[name] as object, far, 'near');
  }
  return wrapped;
}

function environmentFor(raw: Env): Env {
  let wrapped = wrappedEnvironments.get(raw);
  if (!wrapped) {
    environmentsSeen += 1;
    wrapped = { bindings: wrapBindings(raw as unknown as Bindings), variants: new Map() };
    wrappedEnvironments.set(raw, wrapped);
  }
  const key = JSON.stringify(vars);
  let env = wrapped.variants.get(key);
  if (!env) {
    env = { ...raw, ...vars, ...wrapped.bindings } as Env;
    wrapped.variants.set(key, env);
  }
  if (!cacheApiCounted) {
    cacheApiCounted = true;
    const storage = (globalThis as { caches?: CacheStorage }).caches;
    if (storage) countCacheApi(storage, far);
  }
  return env;
}

/** This isolate (`X-Far-Isolate`), named at its first response (no random values in a worker's global scope). */
let isolate: string | undefined;

/** The last requests' records, for GET /__far/requests/{id} (bounded: a long run must not grow the isolate). */
const records = new Map<string, RequestRecord>();
const KEPT_RECORDS = 2000;
let lastId = 0;

function remember(record: RequestRecord): void {
  records.set(record.id, record);
  if (records.size > KEPT_RECORDS) records.delete(records.keys().next().value as string);
}

/** The request's `waitUntil` work is the record's too (settled once it all has). */
function requestContext(ctx: ExecutionContext, record: RequestRecord): ExecutionContext {
  return new Proxy(ctx, {
    get(target, property) {
      if (property === 'waitUntil') {
        return (work: Promise<unknown>) => {
          record.defer(work);
          target.waitUntil(work);
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The response with the record's headers (ASCII: header values are bytes). */
function labelled(response: Response, record: RequestRecord): Response {
  if (response.status === 101) return response;
  const report = farReport(record);
  isolate ??= crypto.randomUUID();
  const headers: Record<string, string> = {
    'X-Far-Request': record.id,
    'X-Far-Isolate': isolate,
    'X-Far-Depth': String(report.depth),
    'X-Far-Calls': chainText(report.levels, { sequence: ' > ', parallel: ' | ' }).replace(/[^\x20-\x7e]/g, '?'),
  };
  try {
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  } catch {
    // Immutable headers (a response passed through from a binding): the same response, headers copied.
    const copy = new Response(response.body, response);
    for (const [name, value] of Object.entries(headers)) copy.headers.set(name, value);
    return copy;
  }
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

async function control(request: Request, url: URL): Promise<Response> {
  if (url.pathname === '/__far/settings' && request.method === 'POST') {
    const body = (await request.json()) as Partial<FarSettings> & { vars?: Record<string, string> };
    far.settings = {
      delayMs: Math.max(0, Number(body.delayMs ?? far.settings.delayMs)),
      replicas: Boolean(body.replicas ?? far.settings.replicas),
    };
    if (body.vars) {
      const bad = Object.keys(body.vars).filter((key) => !key.startsWith('LONGBOX_'));
      if (bad.length > 0) return json({ error: `only LONGBOX_* variables: ${bad.join(', ')}` }, 400);
      vars = Object.fromEntries(Object.entries(body.vars).sort(([a], [b]) => a.localeCompare(b)));
    }
    return json({ settings: far.settings, vars });
  }
  if (url.pathname === '/__far/state') {
    return json({ settings: far.settings, vars, environmentsSeen, unattributed: far.unattributed });
  }
  const id = /^\/__far\/requests\/(\d+)$/.exec(url.pathname)?.[1];
  const record = id === undefined ? undefined : records.get(id);
  if (!record) return json({ error: 'not found' }, 404);
  // ?settled=<ms>: answer once the request's waitUntil work and calls are done (or after that long).
  const wait = Math.min(60_000, Number(url.searchParams.get('settled') ?? 0));
  for (const deadline = Date.now() + wait; !record.settled && Date.now() < deadline; ) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return json(farReport(record));
}

export default {
  async fetch(request, raw, ctx) {
    const url = new URL(request.url);
    if (url.pathname.startsWith('/__far/')) return control(request, url);
    const env = environmentFor(raw);
    lastId += 1;
    const record = new RequestRecord(String(lastId), request.method, url.pathname + url.search);
    remember(record);
    return requests.run(record, async () => {
      let response: Response;
      try {
        response = await longbox.fetch(request, env, requestContext(ctx, record));
      } finally {
        record.respondedAt = far.tick();
      }
      return labelled(response, record);
    });
  },
  scheduled: (controller, raw, ctx) => longbox.scheduled(controller, environmentFor(raw), ctx),
  queue: (batch, raw, ctx) => longbox.queue(batch, environmentFor(raw), ctx),
} satisfies ExportedHandler<Env>;
