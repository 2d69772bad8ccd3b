/**
 * Deployment configuration from `[vars]` and secrets. A config key `a.b_c` is read from `LONGBOX_A__B_C`
 * (DECISIONS.md §Names). Runtime-changeable settings live in the database instead (services/settings).
 */
import { z } from 'zod';

export const booleanString = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', 'yes', 'no'])])
  .transform((v) => v === true || v === 'true' || v === '1' || v === 'yes');

const ConfigSchema = z
  .object({
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
    /**
     * Read through D1's read replicas (the Sessions API) near the reader, the credential check included; writes
     * go to the primary. A revoked key may pass for up to a minute (DECISIONS.md §Far readers). D1 only.
     */
    LONGBOX_DATABASE__READ_REPLICAS: booleanString.default(false),
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
     * (src/pages/edge-page-cache.ts, page-table-cache.ts; issue 30). `npm start` turns it off: on one machine
     * there is no edge to be near, and the local Cache API simulator keeps every page on disk and grows the
     * runtime's memory with each one (docs/BENCHMARKS.md, Memory under page traffic).
     */
    LONGBOX_PAGES__EDGE_CACHE: booleanString.default(true),
    /** The Komga-compatible API at /komga for Mihon, Komelia, Paperback (DECISIONS.md §Reader apps); false → 404. */
    LONGBOX_KOMGA__ENABLED: booleanString.default(true),
    /**
     * Release tracking (issue 32, README "Release tracking"): how long one request to a provider may take, and
     * how many due series the cron hands to the release-poll queue per tick at most. Each provider's address
     * and pace are `LONGBOX_RELEASES__<PROVIDER>_URL` and `…_MIN_INTERVAL_MS` (src/releases/provider-settings.ts).
     */
    LONGBOX_RELEASES__TIMEOUT_MS: z.coerce.number().int().min(10).max(120_000).default(10_000),
    LONGBOX_RELEASES__POLLS_PER_TICK: z.coerce.number().int().min(1).max(100_000).default(2000),
    /**
     * Kobo e-readers (DECISIONS.md §Kobo e-readers): forward what Longbox does not answer to Kobo's store
     * (storeapi.kobo.com), as Komga and calibre-web offer, so store purchases keep syncing. Off: such calls get `{}`.
     */
    LONGBOX_KOBO__STORE_PROXY: booleanString.default(false),
    /**
     * Kobo e-readers: a comic page larger than this box (`1264x1680`, a Libra's screen), or in a format no EPUB
     * shows (WebP), is redrawn as a JPEG within it when the comic is downloaded as an EPUB. Unset: pages are
     * copied as they are and such comics are not offered (DECISIONS.md §Kobo e-readers, comics).
     */
    LONGBOX_KOBO__PAGE_SIZE: z
      .string()
      .regex(/^[1-9]\d{1,3}x[1-9]\d{1,3}$/, 'must be WIDTHxHEIGHT in pixels, such as 1264x1680')
      .optional(),
    /** Items per Kobo sync page (Komga's and calibre-web's 100); more follow with `x-kobo-sync: continue`. */
    LONGBOX_KOBO__SYNC_ITEM_LIMIT: z.coerce.number().int().min(1).max(1000).default(100),
  })
  .refine((config) => !(config.LONGBOX_DATABASE__READ_REPLICAS && config.LONGBOX_DATABASE__URL), {
    path: ['LONGBOX_DATABASE__READ_REPLICAS'],
    message:
      'read replicas are a D1 feature (its Sessions API); libSQL (LONGBOX_DATABASE__URL) has none: unset one of the two',
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
