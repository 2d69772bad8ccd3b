import { createRoute, type z } from '@hono/zod-openapi';
import { createRouter } from '../../http/router';
import { jsonContent } from '../../lib/openapi-responses';
import { type HealthCheckSchema, HealthSchema } from '../../schemas/system.schema';
import { VERSION } from '../../version';

const getHealth = createRoute({
  method: 'get',
  path: '/health',
  tags: ['Health'],
  summary: 'Health check of the database and storage (no authentication)',
  responses: { 200: jsonContent(HealthSchema, 'Healthy'), 503: jsonContent(HealthSchema, 'A dependency is failing') },
});

async function check(run: () => Promise<unknown>): Promise<z.infer<typeof HealthCheckSchema>> {
  const started = Date.now();
  try {
    await run();
    return { status: 'ok', latencyMs: Date.now() - started };
  } catch (error) {
    // The reason names the failing dependency only; details go to the log.
    console.error(JSON.stringify({ level: 'error', msg: 'health check failed', error: String(error) }));
    return { status: 'error', latencyMs: Date.now() - started, message: 'unreachable' };
  }
}

export const healthRouter = createRouter().openapi(getHealth, async (c) => {
  const [database, storage] = await Promise.all([
    check(() => c.get('services').repositories.health.ping()),
    check(() => c.env.LIBRARY.list({ limit: 1 })),
  ]);
  const healthy = database.status === 'ok' && storage.status === 'ok';
  const body = {
    status: healthy ? ('ok' as const) : ('degraded' as const),
    version: VERSION,
    checks: { database, storage },
  };
  return healthy ? c.json(body, 200) : c.json(body, 503);
});
