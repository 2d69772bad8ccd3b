import { createRoute, z } from '@hono/zod-openapi';
import { errorResponses, SECURITY } from '../../lib/openapi-responses';
import { requestViewer } from '../../http/progress-actor';
import { createRouter } from '../../http/router';
import { authenticate } from '../../middleware/authenticate';
import { MetricsSchema } from '../../schemas/system.schema';
import { collectMetrics, toPrometheus } from '../../services/metrics.service';

const getMetrics = createRoute({
  method: 'get',
  path: '/metrics',
  tags: ['Health'],
  security: SECURITY,
  summary: 'Server metrics: JSON, or the Prometheus text format with Accept: text/plain',
  description: 'Counts the whole server: a caller whose libraries or content are restricted gets 403.',
  middleware: [authenticate('SystemHealth')] as const,
  responses: {
    200: {
      description: 'Metrics',
      content: { 'application/json': { schema: MetricsSchema }, 'text/plain': { schema: z.string() } },
    },
    ...errorResponses(401, 403),
  },
});

export const metricsRouter = createRouter().openapi(getMetrics, async (c) => {
  const metrics = await collectMetrics(requestViewer(c), c.get('services').db);
  const accept = c.req.header('Accept') ?? '';
  if (accept.includes('text/plain') && !accept.includes('application/json')) {
    return c.text(toPrometheus(metrics), 200, { 'Content-Type': 'text/plain; version=0.0.4; charset=utf-8' });
  }
  return c.json(metrics, 200);
});
