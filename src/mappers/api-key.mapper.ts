import { keyDisplayPrefix } from '../auth/api-key-format';
import type { Permission } from '../auth/permissions';
import type { ApiKeyRecord } from '../repositories/api-keys.repository';
import type { ApiKeyDto, CreatedApiKeyDto } from '../schemas/api-key.schema';

export function toApiKeyDto({ record, libraryIds }: { record: ApiKeyRecord; libraryIds: string[] | null }): ApiKeyDto {
  return {
    id: record.id,
    name: record.name,
    key_prefix: keyDisplayPrefix(record),
    permissions: record.permissions as Permission[],
    library_ids: libraryIds,
    last_used_at: record.lastUsedAt,
    expires_at: record.expiresAt,
    created_at: record.createdAt,
  };
}

/** The creation response: the only place the full key ever appears (API.md §5 rule 2). */
export function toCreatedApiKeyDto({
  record,
  key,
  libraryIds,
}: {
  record: ApiKeyRecord;
  key: string;
  libraryIds: string[] | null;
}): CreatedApiKeyDto {
  return {
    id: record.id,
    name: record.name,
    key,
    key_prefix: keyDisplayPrefix(record),
    permissions: record.permissions as Permission[],
    library_ids: libraryIds,
    expires_at: record.expiresAt,
    created_at: record.createdAt,
  };
}
