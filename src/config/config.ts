/**
 * Deployment configuration from `[vars]` and secrets. A config key `a.b_c` is read from `LONGBOX_A__B_C`
 * (DECISIONS.md §Names). Runtime-changeable settings live in the database instead (services/settings).
 */
import { z } from 'zod';

export const booleanString = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no'])])
  .transform((v) => v === true || v === 'true' || v === '1' || v === 'yes');

const ConfigSchema = z.object({
  LONGBOX_API__ENABLE_API_DOCS: booleanString.default(false),
  LONGBOX_API__API_DOCS_PATH: z
    .string()
    .regex(/^\/[A-Za-z0-9/_-]*$/, 'must be a path starting with /')
    .default('/docs'),
  /** Signs session tokens and keys API-key hashes. Without it, a generated secret kept in D1 is used. */
  LONGBOX_AUTH__SECRET: z.string().min(32).optional(),
  /** Points the catalog at libSQL instead of D1 (`libsql://…`, `https://…`). */
  LONGBOX_DATABASE__URL: z.string().optional(),
  LONGBOX_DATABASE__AUTH_TOKEN: z.string().optional(),
  LONGBOX_LOG__LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
  /** Wall time of one scan or task slice (one Durable Object alarm); small values make slices observable. */
  LONGBOX_SCAN__SLICE_MS: z.coerce.number().int().min(1).max(60_000).default(10_000),
  LONGBOX_TASKS__SLICE_MS: z.coerce.number().int().min(1).max(60_000).default(15_000),
  /** First retry delay of a failed book-work message; each further retry doubles it (issue 11). */
  LONGBOX_INGEST__RETRY_DELAY_SECONDS: z.coerce.number().int().min(0).max(900).default(10),
  /** A book's one-pass read that gets no bytes from R2 for this long is given up and retried (issue 21). */
  LONGBOX_INGEST__READ_STALL_SECONDS: z.coerce.number().min(0.1).max(600).default(30),
  /** Incomplete books whose last queue message is older than this are queued again by the cron. */
  LONGBOX_INGEST__REQUEUE_AFTER_MINUTES: z.coerce.number().min(0).max(1440).default(10),
  /** The library bucket's name, shown by /filesystem/drives: an R2 binding does not expose it. */
  LONGBOX_STORAGE__BUCKET_NAME: z.string().trim().min(1).default('longbox-library'),
  /** SSE keep-alive comment interval (API.md §8: 15 seconds). */
  LONGBOX_EVENTS__KEEP_ALIVE_MS: z.coerce.number().int().min(10).max(60_000).default(15_000),
  /**
   * Keep original pages, renditions, covers and book tables in the Workers Cache API near the reader
   * (src/pages/edge-page-cache.ts, page-table-cache.ts; issue 30). `npm start` turns it off: on one machine there is no edge to be near, and the local Cache API simulator keeps every
   * page on disk and grows the runtime's memory with each one (docs/BENCHMARKS.md, Memory under page traffic).
   */
  LONGBOX_PAGES__EDGE_CACHE: booleanString.default(true),
  /** The Komga-compatible API at /komga for Mihon, Komelia, Paperback (DECISIONS.md §Reader apps); false → 404. */
  LONGBOX_KOMGA__ENABLED: booleanString.default(true),
});

export type Config = z.infer<typeof ConfigSchema>;

const cache = new WeakMap<object, Config>();

/** Parses the worker environment once per env object; a bad value fails loudly at the first request. */
export function readConfig(env: object): Config {
  const cached = cache.get(env);
  if (cached) return cached;
  const raw = Object.fromEntries(
    Object.entries(env).filter(([key, value]) => key.startsWith('LONGBOX_') && value !== ''),
  );
  const parsed = ConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid Longbox configuration: ${problems}`);
  }
  cache.set(env, parsed.data);
  return parsed.data;
}
