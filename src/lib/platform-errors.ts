/**
 * Failures of the platform that may pass: R2's internal error, D1's documented transient errors, a Durable
 * Object or service binding that could not be reached or was reset. A request that meets one is answered 503
 * with Retry-After — try again shortly — rather than a 500, which says Longbox itself is broken.
 *
 * The runtime gives these errors no type of their own, only messages (D1's list of transient errors names the
 * phrases below: developers.cloudflare.com/d1/best-practices/retry-queries) and, for Durable Objects and
 * RPC, a `retryable` flag. Drizzle wraps D1's error in its own (`cause`), so the whole chain is looked at.
 */
const TRANSIENT_MESSAGES = [
  /We encountered an internal error\. Please try again/i, // R2 (code 10001)
  /Network connection lost/i, // D1, RPC, service bindings
  /storage caused object to be reset/i, // D1 and Durable Object storage
  /reset because its code was updated/i, // D1, Durable Objects during a deploy
  /\boverloaded\b/i, // D1 ("D1 DB is overloaded"), Durable Objects
  /SQLITE_BUSY|database is locked/i, // local D1 shared by two processes, after src/db/busy-retry.ts gave up
];

export function isTransientPlatformError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    if (typeof current === 'object' && (current as { retryable?: unknown }).retryable === true) return true;
    const message = current instanceof Error ? current.message : String(current);
    if (TRANSIENT_MESSAGES.some((pattern) => pattern.test(message))) return true;
    current = typeof current === 'object' ? (current as { cause?: unknown }).cause : undefined;
  }
  return false;
}

/** Seconds a client is asked to wait before trying again. */
export const RETRY_AFTER_SECONDS = 5;

/** The innermost error's message: drizzle's "Failed query: …" names the statement, its cause says why it failed. */
export function rootCauseMessage(error: unknown): string {
  let root: unknown = error;
  for (let depth = 0; depth < 5 && root instanceof Error && root.cause !== undefined; depth++) root = root.cause;
  return root instanceof Error ? root.message : String(root);
}
