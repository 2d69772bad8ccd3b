/**
 * Bench-only worker: the least a worker can do to serve an image from R2. `GET /objects/<key>` streams
 * the object with its type, length and ETag; `PUT /objects/<key>` stores the body (to load the local
 * bucket before measuring). No auth, no database: the reference for the real page route.
 */
interface BenchEnv {
  LIBRARY: R2Bucket;
}

export default {
  async fetch(request: Request, env: BenchEnv): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname === '/ready') return new Response('ok');
    if (!pathname.startsWith('/objects/')) return new Response('not found', { status: 404 });
    const key = decodeURIComponent(pathname.slice('/objects/'.length));
    if (request.method === 'PUT') {
      const stored = await env.LIBRARY.put(key, request.body);
      return Response.json({ key, size: stored?.size ?? 0 }, { status: 201 });
    }
    const object = await env.LIBRARY.get(key);
    if (!object) return new Response('not found', { status: 404 });
    return new Response(object.body, {
      headers: {
        'Content-Type': object.httpMetadata?.contentType ?? 'image/jpeg',
        'Content-Length': String(object.size),
        ETag: object.httpEtag,
      },
    });
  },
} satisfies ExportedHandler<BenchEnv>;
