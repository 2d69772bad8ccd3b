import type { D1Migration } from '@cloudflare/vitest-plugin';

declare global {
  namespace Cloudflare {
    interface Env {
      TEST_MIGRATIONS: D1Migration[];
      /** The lagging read replica's copy of the catalog (test/support/replica.ts). */
      REPLICA_SIM: D1Database;
      /** KOReader statistics databases written by node:sqlite (test/support/koreader-statistics-db.mjs): name → base64. */
      KOREADER_FIXTURES: Record<string, string>;
    }
  }
}
