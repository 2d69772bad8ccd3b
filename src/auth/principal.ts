/** Who is calling, and with which effective permissions (computed once per request). */
import type { UserRecord } from '../repositories/users.repository';
import type { ViewerAccess } from '../repositories/visibility';
import type { Permission } from './permissions';

export type AuthMethod = 'session' | 'api_key' | 'basic' | 'cloudflare_access';

export interface Principal {
  user: UserRecord;
  method: AuthMethod;
  permissions: ReadonlySet<Permission>;
  /** What the caller may see of the catalog (auth/access.ts), read with the credentials. */
  access: ViewerAccess;
  sessionId?: string;
  /** The API key used, with the libraries it is narrowed to (null: all its owner's). */
  apiKey?: { id: string; name: string; libraryIds: readonly string[] | null };
}
