/** Who is calling, and with which effective permissions (computed once per request). */
import type { UserRecord } from '../repositories/users.repository';
import type { Permission } from './permissions';

export type AuthMethod = 'session' | 'api_key' | 'basic' | 'cloudflare_access';

export interface Principal {
  user: UserRecord;
  method: AuthMethod;
  permissions: ReadonlySet<Permission>;
  sessionId?: string;
  apiKey?: { id: string; name: string };
}
