/**
 * Bench-only worker: the least a worker can do to serve an image from R2. `GET /objects/<key>` streams
 * the object with its type, length and ETag; `PUT /objects/<key>` stores the body (to load the local
 * bucket before measuring). No auth, no database: the reference for the real page route.
 *
 * `GET /keyed-objects/<key>` does the same after the one database read every authenticated Longbox
 * request must make (DECISIONS.md §Auth: a revoked key fails at once): the API key's row and its
 * owner's, looked up by the key's prefix, with the plain D1 API. It is the floor for a route that
 * checks an API key, so the page route's own overhead can be told apart from that read's.
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

export default {
  async fetch(request: Request, env: BenchEnv): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === '/ready') return new Response('ok');
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
