/**
 * The server secret that signs session tokens and keys API-key hashes. Production sets
 * LONGBOX_AUTH__SECRET with `wrangler secret put`; without it (local dev) one is generated once and
 * kept in the database so that tokens survive restarts.
 */
import { randomAlphanumeric } from '../lib/encoding';
import { nowIso } from '../lib/ids';
import type { SettingsRepository } from '../repositories/settings.repository';

const isolateSecrets = new WeakMap<object, Promise<string>>();

export function serverSecret(env: object, configured: string | undefined, repo: SettingsRepository): Promise<string> {
  if (configured) return Promise.resolve(configured);
  let pending = isolateSecrets.get(env);
  if (!pending) {
    pending = (async () =>
      (await repo.getServerSecret('auth')) ?? repo.ensureServerSecret('auth', randomAlphanumeric(64), nowIso()))();
    pending.catch(() => isolateSecrets.delete(env));
    isolateSecrets.set(env, pending);
  }
  return pending;
}
