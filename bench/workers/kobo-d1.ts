/**
 * Bench-only worker: Longbox's Kobo routes (src/kobo/kobo.app.ts, the same code the API worker mounts at /kobo)
 * over a D1 binding that counts what each request sends to D1 — round trips (a statement or a batch) and the
 * statements in them — answered in `X-Bench-D1-Calls` and `X-Bench-D1-Statements` once the whole body has been
 * produced. Code inside workerd cannot time itself; it can count.
 */
import { createD1Database } from '../../src/db/client';
import { aroundD1Calls } from '../../src/db/d1-calls';
import { createKoboApp } from '../../src/kobo/kobo.app';

export default {
  async fetch(request: Request, env: Env, ctx: ExecutionContext): Promise<Response> {
    if (new URL(request.url).pathname === '/ready') return new Response('ok');
    let calls = 0;
    let statements = 0;
    const counted = aroundD1Calls(env.DB, (call, sql) => {
      calls += 1;
      statements += sql.length;
      return call();
    });
    const app = createKoboApp(() => createD1Database(counted));
    const response = await app.fetch(request, { ...env, DB: counted }, ctx);
    const body = await response.arrayBuffer();
    const headers = new Headers(response.headers);
    headers.set('X-Bench-D1-Calls', String(calls));
    headers.set('X-Bench-D1-Statements', String(statements));
    return new Response(request.method === 'HEAD' ? null : body, { status: response.status, headers });
  },
};
