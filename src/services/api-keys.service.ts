/**
 * The caller's own API keys (API.md §4 API keys, §5 rules 1–8). A key never carries a permission its
 * creator lacks at creation or update time; at request time AuthenticationService intersects it with the
 * owner's current permissions, so a demoted owner's keys shrink at once.
 */
import { generateApiKey, hashApiKeySecret } from '../auth/api-key-format';
import { type Permission, PERMISSIONS, satisfies } from '../auth/permissions';
import type { Principal } from '../auth/principal';
import { AppError, badRequest, notFound } from '../lib/errors';
import { newId, nowIso } from '../lib/ids';
import type { ApiKeyRecord, ApiKeysRepository } from '../repositories/api-keys.repository';

/** A fresh 8-character prefix collides with an existing one about once in 10^12 keys; retry then. */
const PREFIX_ATTEMPTS = 3;

export interface CreateApiKeyInput {
  name: string;
  permissions?: Permission[];
  expires_at?: string | null;
}

export type UpdateApiKeyInput = Partial<CreateApiKeyInput>;

export class ApiKeysService {
  constructor(
    private readonly apiKeys: ApiKeysRepository,
    private readonly secret: () => Promise<string>,
  ) {}

  list(owner: Principal): Promise<ApiKeyRecord[]> {
    return this.apiKeys.listOwned(owner.user.id);
  }

  /** Another user's key answers 404, exactly like a key that does not exist. */
  async get(owner: Principal, id: string): Promise<ApiKeyRecord> {
    const record = await this.apiKeys.getOwned(id, owner.user.id);
    if (!record) throw notFound('API key');
    return record;
  }

  async create(owner: Principal, input: CreateApiKeyInput): Promise<{ record: ApiKeyRecord; key: string }> {
    const permissions = input.permissions ? grantable(owner, input.permissions) : heldBy(owner);
    const expiresAt = futureInstant(input.expires_at);
    const serverSecret = await this.secret();
    for (let attempt = 1; ; attempt++) {
      const { key, prefix, secret } = generateApiKey();
      try {
        const record = await this.apiKeys.create({
          id: newId(),
          userId: owner.user.id,
          name: input.name,
          prefix,
          secretHash: await hashApiKeySecret(secret, serverSecret),
          permissions,
          expiresAt,
          lastUsedAt: null,
          createdAt: nowIso(),
        });
        return { record, key };
      } catch (error) {
        if (attempt >= PREFIX_ATTEMPTS || !String(error).includes('UNIQUE')) throw error;
      }
    }
  }

  async update(owner: Principal, id: string, input: UpdateApiKeyInput): Promise<ApiKeyRecord> {
    const record = await this.get(owner, id);
    const changes: Parameters<ApiKeysRepository['update']>[1] = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.permissions !== undefined) changes.permissions = grantable(owner, input.permissions);
    if (input.expires_at !== undefined) changes.expiresAt = futureInstant(input.expires_at);
    if (Object.keys(changes).length === 0) return record;
    const updated = await this.apiKeys.update(record.id, changes);
    if (!updated) throw notFound('API key');
    return updated;
  }

  /** Revocation: the next request with the key is rejected (rule 7). */
  async delete(owner: Principal, id: string): Promise<void> {
    const record = await this.get(owner, id);
    await this.apiKeys.delete(record.id);
  }
}

/** Rule 6: what the caller holds in this request (a key minting a key is bounded by its own set). */
function heldBy(owner: Principal): Permission[] {
  return PERMISSIONS.filter((p) => owner.permissions.has(p));
}

/**
 * Rule 5: asking for a permission the caller lacks is a 403 that names it. SystemAdmin passes every
 * check, so its holder may grant anything.
 */
function grantable(owner: Principal, requested: readonly Permission[]): Permission[] {
  const missing = [...new Set(requested)].filter((p) => !satisfies(owner.permissions, p));
  if (missing.length > 0) {
    throw new AppError('Forbidden', `You cannot grant permissions you do not hold: ${missing.join(', ')}`, {
      details: missing.map((p) => ({
        path: `permissions.${requested.indexOf(p)}`,
        message: `${p} is not held by you`,
      })),
    });
  }
  return PERMISSIONS.filter((p) => requested.includes(p));
}

/** Expiry must lie ahead (a key born expired is a client mistake); stored as UTC with milliseconds. */
function futureInstant(value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  const at = Date.parse(value);
  if (at <= Date.now()) {
    throw badRequest('expires_at must lie in the future', [{ path: 'expires_at', message: 'must lie in the future' }]);
  }
  return new Date(at).toISOString();
}
