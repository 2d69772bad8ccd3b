/** DECISIONS.md §Health and metrics: the health check and the inventory metrics, as the API sends them. */
import { z } from '@hono/zod-openapi';

export const HealthCheckSchema = z.object({
  status: z.enum(['ok', 'error']),
  latencyMs: z.number(),
  message: z.string().optional(),
});

export const HealthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    version: z.string(),
    checks: z.object({ database: HealthCheckSchema, storage: HealthCheckSchema }),
  })
  .openapi('Health');

export const MetricsSchema = z
  .object({
    libraries: z.number().int(),
    series: z.number().int(),
    books: z.number().int(),
    booksWithErrors: z.number().int(),
    pages: z.number().int(),
    bytes: z.number().int(),
    users: z.number().int(),
    tasks: z.record(z.string(), z.number().int()),
  })
  .openapi('Metrics');
