/**
 * Bindings of renderer/wrangler.toml. Written by hand: `wrangler types` output for a second worker would
 * redeclare the global helper types of the API worker's worker-configuration.d.ts in the same program.
 */
export interface RendererEnv {
  /** The user's book files (read-only here). */
  LIBRARY: R2Bucket;
  /** "true" enables the benchmark route (src/bench-route.ts); "false" in wrangler.toml. */
  LONGBOX_RENDERER__BENCH_ROUTE: string;
}
