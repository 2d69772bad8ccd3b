/**
 * The signed-in session. Its credential is the HttpOnly cookie the server sets at sign-in, which signs
 * every API call, image and event stream and which no script can read (DECISIONS.md §Security); the app
 * keeps only what is not secret — who is signed in, until when, and how — in localStorage, so a reload
 * opens the right screens at once. Logging out clears both. An expired session (the first 401) sends the
 * user to the login screen and remembers where they were.
 */
import { computed, signal } from '@preact/signals';
import { configureClient, post } from '../api/client';
import type { LoginResponse, SessionUser } from '../api/types';
import { currentPath, navigate } from './navigation';

const STORAGE_KEY = 'longbox.session';

interface StoredSession {
  user: SessionUser;
  expiresAt: number;
  /** Set when Cloudflare Access signed the browser in: signing out must end the Access session too. */
  via?: 'password' | 'cookie' | 'cloudflare_access';
}

function load(): StoredSession | null {
  try {
    const stored = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null') as
      | (StoredSession & { token?: string })
      | null;
    if (!stored || !(stored.expiresAt > Date.now())) return null;
    if ('token' in stored) {
      // Kept by an older version of the app: the cookie holds the credential now, so it goes.
      const { token: _dropped, ...kept } = stored;
      localStorage.setItem(STORAGE_KEY, JSON.stringify(kept));
      return kept;
    }
    return stored;
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
  signedIn: () => session.value !== null,
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

/** Signed in (the server has set the cookie): the login response's token is never kept. */
export function signIn(
  response: Pick<LoginResponse, 'user' | 'expires_in'>,
  via: StoredSession['via'] = 'password',
): void {
  const stored: StoredSession = {
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
