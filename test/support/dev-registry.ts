import { mkdirSync } from 'node:fs';
import path from 'node:path';

/**
 * Environment that gives one `wrangler dev` a dev registry of its own, inside its state folder (as
 * `npm start` does). The default registry is shared by every wrangler process on the machine, so a test
 * server could bind to the workers of another test's server (or of one already stopped) by name, and
 * the vitest worker pool to theirs.
 */
export function privateDevRegistry(stateFolder: string): Record<string, string> {
  const registry = path.join(stateFolder, 'dev-registry');
  mkdirSync(registry, { recursive: true });
  return { WRANGLER_REGISTRY_PATH: registry, CLOUDFLARE_DEV_REGISTRY_PATH: registry };
}
