/**
 * The signed-in session: the bearer token for API calls (kept in localStorage so a reload stays signed
 * in) and the user it belongs to. The server also sets the HttpOnly cookie that images and event
 * streams use; logging out clears both. An expired session sends the user to the login screen and
 * remembers where they were.
 */
import { computed, signal } from '@preact/signals';
import { configureClient, post } from '../api/client';
import type { LoginResponse, SessionUser } from '../api/types';
import { currentPath, navigate } from './navigation';

const STORAGE_KEY = 'longbox.session';

interface StoredSession {
  token: string;
  user: SessionUser;
  expiresAt: number;
  /** Set when Cloudflare Access signed the browser in: signing out must end the Access session too. */
  via?: 'password' | 'cookie' | 'cloudflare_access';
}

function load(): StoredSession | null {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as StoredSession | null;
    return stored && stored.expiresAt > Date.now() ? stored : null;
  } catch {
    return null;
  }
}

export const session = signal<StoredSession | null>(load());
export const currentUser = computed(() => session.value?.user ?? null);
export const isAdmin = computed(() => session.value?.user.role === 'admin');
/** Maintainers and admins write collections and read lists (docs/DECISIONS.md §Roles and permissions). */
export const canEditLists = computed(() => ['admin', 'maintainer'].includes(session.value?.user.role ?? ''));
/** Set when the server rejected our token, so the login screen can say why the user is there. */
export const sessionExpired = signal(false);

configureClient({
  token: () => session.value?.token ?? null,
  onUnauthorized() {
    if (!session.value) return;
    clear();
    sessionExpired.value = true;
    const here = currentPath();
    if (!here.startsWith('/login')) navigate(`/login?next=${encodeURIComponent(here)}`, { replace: true });
  },
});

function clear(): void {
  session.value = null;
  localStorage.removeItem(STORAGE_KEY);
}

export function signIn(response: LoginResponse, via: StoredSession['via'] = 'password'): void {
  const stored: StoredSession = {
    token: response.access_token,
    user: response.user,
    expiresAt: Date.now() + response.expires_in * 1000,
    via,
  };
  localStorage.setItem(STORAGE_KEY, JSON.stringify(stored));
  sessionExpired.value = false;
  session.value = stored;
}

export async function login(username: string, password: string): Promise<void> {
  signIn(await post<LoginResponse>('/auth/login', { username, password }));
}

/** Ends the Access session (Cloudflare answers this path on every Access-guarded host). */
const ACCESS_LOGOUT = '/cdn-cgi/access/logout';

export async function logout(): Promise<void> {
  const via = session.value?.via;
  try {
    await post('/auth/logout');
  } finally {
    clear();
    // Under Cloudflare Access the login screen would sign the same identity straight back in.
    if (via === 'cloudflare_access') location.assign(ACCESS_LOGOUT);
    else navigate('/login', { replace: true });
  }
}
