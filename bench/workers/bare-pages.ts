/**
 * Bench-only worker (bench/soak.bench.mjs, the memory-growth reference): the same page bytes Longbox serves,
 * read from the same local R2 with the same calls, and nothing of Longbox — no auth, no D1 per request, no
 * Hono, no module state. If `wrangler dev` grows as much serving pages through this worker as through the
 * API worker, the growth is the local platform's (workerd, the R2/D1/cache simulators, wrangler's proxy),
 * not Longbox's isolate.
 *
 * - `GET /index?limit=<n>`: every ZIP page of the catalog (one D1 read, done once by the bench):
 *   `[[key, offset, length, dataOffset], …]` — the ranged read Longbox makes for an original page.
 * - `GET /page?key=&offset=&length=&skip=&mode=`: that ranged read of the object, answered with
 *   - `mode=plain` (default): R2's body as the response body;
 *   - `mode=pipe`: as src/pages/zip-page-direct.ts — a BYOB read of the local header, then the rest piped
 *     into a FixedLengthStream;
 *   - `mode=cache`: `pipe`, plus the edge page cache as src/services/page.service.ts uses it (match first;
 *     on a miss the stream is teed and one branch put into `caches.default` after the response);
 *   - `mode=put`: the read, its bytes stored as a new object in the CACHE bucket (as a rendered page or a
 *     thumbnail is stored), then answered.
 */
interface BenchEnv {
  LIBRARY: R2Bucket;
  CACHE: R2Bucket;
  DB: D1Database;
}

const INDEX_SQL = `SELECT b.path AS key, json_extract(p.locator, '$.offset') AS offset,
  json_extract(p.locator, '$.headerHint') AS hint, json_extract(p.locator, '$.compressedSize') AS size
  FROM book_pages p JOIN books b ON b.id = p.book_id
  WHERE json_extract(p.locator, '$.kind') = 'zip' AND json_extract(p.locator, '$.method') = 0
  ORDER BY b.path, p.number LIMIT ?`;

async function pipedPage(object: R2ObjectBody, skip: number, length: number): Promise<ReadableStream> {
  const reader = object.body.getReader({ mode: 'byob' });
  await reader.readAtLeast(skip, new Uint8Array(skip));
  reader.releaseLock();
  const { readable, writable } = new FixedLengthStream(length - skip);
  object.body.pipeTo(writable).catch(() => {});
  return readable;
}

async function page(request: Request, env: BenchEnv, ctx: ExecutionContext): Promise<Response> {
  const params = new URL(request.url).searchParams;
  const key = params.get('key') ?? '';
  const offset = Number(params.get('offset'));
  const length = Number(params.get('length'));
  const skip = Number(params.get('skip') ?? 0);
  const mode = params.get('mode') ?? 'plain';
  const headers = { 'Content-Type': 'image/jpeg' };
  const cacheKey = `${new URL(request.url).origin}/__bench/edge-cache/${encodeURIComponent(key)}/${offset}`;
  if (mode === 'cache') {
    const hit = await caches.default.match(cacheKey);
    if (hit?.body) return new Response(hit.body, { headers: { ...headers, 'X-Cache': 'hit' } });
  }
  const object = await env.LIBRARY.get(key, { range: { offset, length } });
  if (!object) return new Response('not found', { status: 404 });
  if (mode === 'plain') return new Response(object.body, { headers });
  if (mode === 'put') {
    const bytes = await object.arrayBuffer();
    await env.CACHE.put(`bench/${encodeURIComponent(key)}/${offset}`, bytes, {
      httpMetadata: { contentType: 'image/jpeg' },
    });
    return new Response(bytes, { headers });
  }
  const body = await pipedPage(object, skip, length);
  if (mode !== 'cache') return new Response(body, { headers });
  const [served, kept] = body.tee();
  ctx.waitUntil(
    caches.default.put(
      cacheKey,
      new Response(kept, {
        headers: { ...headers, 'Content-Length': String(length - skip), 'Cache-Control': 'public, max-age=2592000' },
      }),
    ),
  );
  return new Response(served, { headers: { ...headers, 'X-Cache': 'miss' } });
}

export default {
  async fetch(request, env, ctx): Promise<Response> {
    const { pathname, searchParams } = new URL(request.url);
    if (pathname === '/ready') return new Response('ok');
    if (pathname === '/index') {
      const limit = Number(searchParams.get('limit') ?? 1_000_000);
      const { results } = await env.DB.prepare(INDEX_SQL).bind(limit).all<Record<string, string | number>>();
      return Response.json(results.map((r) => [r.key, r.offset, Number(r.hint) + Number(r.size), Number(r.hint)]));
    }
    if (pathname === '/page') return page(request, env, ctx);
    return new Response('not found', { status: 404 });
  },
} satisfies ExportedHandler<BenchEnv>;
