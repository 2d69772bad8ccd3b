/**
 * The caller's own API keys (API.md §4 API keys, §5 rules 1–8). A key never carries a permission its
 * creator lacks at creation or update time; at request time AuthenticationService intersects it with the
 * owner's current permissions, so a demoted owner's keys shrink at once.
 */
import { generateApiKey, hashApiKeySecret } from '../auth/api-key-format';
import { type Permission, PERMISSIONS, satisfies } from '../auth/permissions';
import type { Principal } from '../auth/principal';
import { AppError, badRequest, isUniqueViolation, notFound } from '../lib/errors';
import { newId, nowIso } from '../lib/ids';
import type { ApiKeyRecord, ApiKeysRepository } from '../repositories/api-keys.repository';
import { viewerOf } from '../repositories/visibility';
import type { LibrariesService } from './libraries.service';

/** A fresh 8-character prefix collides with an existing one about once in 10^12 keys; retry then. */
const PREFIX_ATTEMPTS = 3;

export interface CreateApiKeyInput {
  name: string;
  permissions?: Permission[];
  expires_at?: string | null;
  /** Narrows the key to these libraries (among the creator's); omitted: every library the owner sees. */
  library_ids?: string[];
}

export type UpdateApiKeyInput = Partial<Omit<CreateApiKeyInput, 'library_ids'>>;

/** A key with the libraries it is narrowed to (null: every library its owner sees). */
export interface ApiKeyWithLibraries {
  record: ApiKeyRecord;
  libraryIds: string[] | null;
}

export class ApiKeysService {
  constructor(
    private readonly apiKeys: ApiKeysRepository,
    private readonly libraries: LibrariesService,
    private readonly secret: () => Promise<string>,
  ) {}

  async list(owner: Principal): Promise<ApiKeyWithLibraries[]> {
    return this.withLibraries(await this.apiKeys.listOwned(owner.user.id));
  }

  /** Another user's key answers 404, exactly like a key that does not exist. */
  async get(owner: Principal, id: string): Promise<ApiKeyWithLibraries> {
    const [key] = await this.withLibraries([await this.owned(owner, id)]);
    return key as ApiKeyWithLibraries;
  }

  private async owned(owner: Principal, id: string): Promise<ApiKeyRecord> {
    const record = await this.apiKeys.getOwned(id, owner.user.id);
    if (!record) throw notFound('API key');
    return record;
  }

  private async withLibraries(records: ApiKeyRecord[]): Promise<ApiKeyWithLibraries[]> {
    const narrowed = await this.apiKeys.librariesOf(records.filter((r) => !r.allLibraries).map((r) => r.id));
    return records.map((record) => ({
      record,
      libraryIds: record.allLibraries ? null : (narrowed.get(record.id) ?? []).sort(),
    }));
  }

  async create(owner: Principal, input: CreateApiKeyInput): Promise<ApiKeyWithLibraries & { key: string }> {
    const permissions = input.permissions ? grantable(owner, input.permissions) : heldBy(owner);
    const libraryIds = await this.libraryScope(owner, input.library_ids);
    const expiresAt = futureInstant(input.expires_at);
    const serverSecret = await this.secret();
    for (let attempt = 1; ; attempt++) {
      const { key, prefix, secret } = generateApiKey();
      try {
        const record = await this.apiKeys.create(
          {
            id: newId(),
            userId: owner.user.id,
            name: input.name,
            prefix,
            format: 'longbox',
            secretHash: await hashApiKeySecret(secret, serverSecret),
            permissions,
            allLibraries: libraryIds === null,
            expiresAt,
            lastUsedAt: null,
            createdAt: nowIso(),
          },
          libraryIds ?? [],
        );
        return { record, key, libraryIds: libraryIds && [...libraryIds].sort() };
      } catch (error) {
        if (attempt >= PREFIX_ATTEMPTS || !isUniqueViolation(error)) throw error;
      }
    }
  }

  /**
   * The libraries a new key is narrowed to: those asked for, each one a library the caller sees (else 400
   * naming them, as for an unknown id); without any, the narrowing of the key making the request (a
   * narrowed key never mints a wider one), else none (the key follows its owner's access).
   */
  private async libraryScope(owner: Principal, requested: string[] | undefined): Promise<string[] | null> {
    if (requested === undefined) return owner.apiKey?.libraryIds ? [...owner.apiKey.libraryIds] : null;
    const unknown = await this.libraries.unknownIds(viewerOf(owner), requested);
    if (unknown.length > 0) {
      throw badRequest(
        `Unknown library ids: ${unknown.join(', ')}`,
        unknown.map((id) => ({ path: `library_ids.${requested.indexOf(id)}`, message: `no library ${id}` })),
      );
    }
    return [...new Set(requested)];
  }

  /** Renames, re-permits or re-dates a key. Its libraries are fixed at creation (a key is never widened). */
  async update(owner: Principal, id: string, input: UpdateApiKeyInput): Promise<ApiKeyWithLibraries> {
    const record = await this.owned(owner, id);
    const changes: Parameters<ApiKeysRepository['update']>[1] = {};
    if (input.name !== undefined) changes.name = input.name;
    if (input.permissions !== undefined) changes.permissions = grantable(owner, input.permissions);
    if (input.expires_at !== undefined) changes.expiresAt = futureInstant(input.expires_at);
    const updated = Object.keys(changes).length === 0 ? record : await this.apiKeys.update(record.id, changes);
    if (!updated) throw notFound('API key');
    return (await this.withLibraries([updated]))[0] as ApiKeyWithLibraries;
  }

  /** Revocation: the next request with the key is rejected (rule 7). */
  async delete(owner: Principal, id: string): Promise<void> {
    const record = await this.owned(owner, id);
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
