/** Who is calling, and with which effective permissions (computed once per request). */
import type { UserRecord } from '../repositories/users.repository';
import type { ViewerAccess } from '../repositories/visibility';
import type { UserGrants } from './access';
import type { Permission } from './permissions';

export type AuthMethod = 'session' | 'api_key' | 'basic' | 'cloudflare_access';

export interface Principal {
  user: UserRecord;
  method: AuthMethod;
  permissions: ReadonlySet<Permission>;
  /** What the caller may see of the catalog (auth/access.ts), read with the credentials. */
  access: ViewerAccess;
  /** The user's own grants as read with the credentials (`access` is worked out from them and the key's). */
  grants: UserGrants;
  sessionId?: string;
  /** The API key used, as read with it: the libraries it is narrowed to (null: all its owner's) and its limits. */
  apiKey?: {
    id: string;
    name: string;
    libraryIds: readonly string[] | null;
    permissions: readonly string[];
    expiresAt: string | null;
  };
}

/**
 * Everything a request may be answered from, as one string: the user's row, their grants, the key and the
 * session. Two principals with the same facts are the same caller to every handler (their permissions and
 * access are worked out from these), so an answer made for one is right for the other
 * (docs/ARCHITECTURE.md, "The credential check beside the request").
 */
export function callerFacts(principal: Principal): string {
  return JSON.stringify([
    principal.method,
    principal.sessionId ?? null,
    principal.apiKey ?? null,
    principal.user,
    principal.grants,
  ]);
}
