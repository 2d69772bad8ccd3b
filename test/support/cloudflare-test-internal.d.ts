/**
 * The module `cloudflare:test` re-exports from (@cloudflare/vitest-plugin, dist/worker/lib/cloudflare/
 * test-internal.mjs): only what test/support/apply-migrations.ts uses of what it does not re-export.
 */
declare module 'cloudflare:test-internal' {
  /** Waits until every promise handed to a worker's `ctx.waitUntil` so far (and any they add) has settled. */
  export function waitForGlobalWaitUntil(): Promise<void>;
}
