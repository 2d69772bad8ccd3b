/**
 * Bench-only worker: the least a worker can do to serve an image from R2. `GET /objects/<key>` streams
 * the object with its type, length and ETag; `PUT /objects/<key>` stores the body (to load the local
 * bucket before measuring). No auth, no database: the reference for the real page route.
 *
 * `GET /keyed-objects/<key>` does the same after the one database read every authenticated Longbox
 * request must make (DECISIONS.md §Auth: a revoked key fails at once): the API key's row and its
 * owner's, looked up by the key's prefix, with the plain D1 API. It is the floor for a route that
 * checks an API key, so the page route's own overhead can be told apart from that read's.
 *
 * `GET /read-all?prefix=<p>&concurrency=<n>` (bench/ingest.bench.mjs) reads every object under the
 * prefix once, start to end, `n` at a time, and discards the bytes: the bare cost of the one sequential
 * read per book that ingest makes, without any of its work.
 */
interface BenchEnv {
  LIBRARY: R2Bucket;
  DB: D1Database;
}

/** The statement the credential check runs (src/repositories/api-keys.repository.ts, keyWithOwner). */
const KEY_WITH_OWNER = 'SELECT k.*, u.* FROM api_keys k INNER JOIN users u ON u.id = k.user_id WHERE k.prefix = ?';
const KEY_PREFIX = /^lbx_([a-z0-9]{8})_/;

async function serveObject(env: BenchEnv, key: string): Promise<Response> {
  const object = await env.LIBRARY.get(key);
  if (!object) return new Response('not found', { status: 404 });
  return new Response(object.body, {
    headers: {
      'Content-Type': object.httpMetadata?.contentType ?? 'image/jpeg',
      'Content-Length': String(object.size),
      ETag: object.httpEtag,
    },
  });
}

async function readAll(env: BenchEnv, prefix: string, concurrency: number): Promise<Response> {
  const keys: string[] = [];
  for (let cursor: string | undefined; ; ) {
    const page = await env.LIBRARY.list({ prefix, cursor, limit: 1000 });
    keys.push(...page.objects.map((o) => o.key));
    if (!page.truncated) break;
    cursor = page.cursor;
  }
  const started = Date.now();
  let bytes = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < keys.length) {
        const object = await env.LIBRARY.get(keys[next++] as string);
        if (!object) continue;
        // Read as the consumers' one pass reads (src/scanning/sequential-object-reader.ts): 64 KiB at a time.
        const reader = object.body.getReader({ mode: 'byob' });
        for (;;) {
          const { done, value } = await reader.readAtLeast(64 * 1024, new Uint8Array(64 * 1024));
          bytes += value?.length ?? 0;
          if (done || !value?.length) break;
        }
      }
    }),
  );
  return Response.json({ objects: keys.length, bytes, ms: Date.now() - started });
}

export default {
  async fetch(request: Request, env: BenchEnv): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === '/ready') return new Response('ok');
    if (pathname === '/read-all') {
      const params = new URL(request.url).searchParams;
      return readAll(env, params.get('prefix') ?? '', Math.max(1, Number(params.get('concurrency') ?? 1)));
    }
    if (pathname.startsWith('/keyed-objects/')) {
      const prefix = KEY_PREFIX.exec(request.headers.get('X-API-Key') ?? '')?.[1];
      const row = prefix ? await env.DB.prepare(KEY_WITH_OWNER).bind(prefix).raw() : [];
      if (row.length === 0) return new Response('unauthorized', { status: 401 });
      return serveObject(env, decodeURIComponent(pathname.slice('/keyed-objects/'.length)));
    }
    if (!pathname.startsWith('/objects/')) return new Response('not found', { status: 404 });
    const key = decodeURIComponent(pathname.slice('/objects/'.length));
    if (request.method === 'PUT') {
      const stored = await env.LIBRARY.put(key, request.body);
      return Response.json({ key, size: stored?.size ?? 0 }, { status: 201 });
    }
    return serveObject(env, key);
  },
} satisfies ExportedHandler<BenchEnv>;
