/** Test data through the API itself: the first admin, users of each role, sessions and API keys. */
import { api, type Credentials } from './http';

export const ADMIN = { username: 'admin', email: 'admin@example.com', password: 'admin-password-1' };

export async function setupAdmin(): Promise<{ token: string; userId: string; auth: Credentials }> {
  const res = await api('/setup/initialize', { json: ADMIN });
  if (res.status !== 201) throw new Error(`setup failed: ${res.status} ${res.text}`);
  return { token: res.body.access_token, userId: res.body.user.id, auth: { token: res.body.access_token } };
}

let counter = 0;
export function uniqueName(prefix = 'user'): string {
  counter += 1;
  return `${prefix}${counter}${Math.random().toString(36).slice(2, 6)}`;
}

export async function createUser(
  admin: Credentials,
  overrides: { role?: string; customPermissions?: string[]; password?: string; username?: string; email?: string } = {},
) {
  const username = overrides.username ?? uniqueName();
  const password = overrides.password ?? 'reader-password-1';
  const res = await api('/users', {
    auth: admin,
    json: {
      username,
      email: overrides.email ?? `${username}@example.com`,
      password,
      role: overrides.role ?? 'reader',
      customPermissions: overrides.customPermissions ?? [],
    },
  });
  if (res.status !== 201) throw new Error(`create user failed: ${res.status} ${res.text}`);
  return { id: res.body.id as string, username, password, user: res.body };
}

export async function login(username: string, password: string): Promise<{ token: string; auth: Credentials }> {
  const res = await api('/auth/login', { json: { username, password } });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
  return { token: res.body.access_token, auth: { token: res.body.access_token } };
}

export async function createApiKey(owner: Credentials, body: Record<string, unknown> = { name: 'test key' }) {
  const res = await api('/api-keys', { auth: owner, json: body });
  if (res.status !== 201) throw new Error(`create key failed: ${res.status} ${res.text}`);
  return res.body as { id: string; key: string; key_prefix: string; permissions: string[] };
}
