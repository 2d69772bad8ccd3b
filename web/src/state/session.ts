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

export function signIn(response: LoginResponse): void {
  const stored: StoredSession = {
    token: response.access_token,
    user: response.user,
    expiresAt: Date.now() + response.expires_in * 1000,
  };
  localStorage.setItem(STORAGE_KEY, JSON.stringify(stored));
  sessionExpired.value = false;
  session.value = stored;
}

export async function login(username: string, password: string): Promise<void> {
  signIn(await post<LoginResponse>('/auth/login', { username, password }));
}

export async function logout(): Promise<void> {
  try {
    await post('/auth/logout');
  } finally {
    clear();
    navigate('/login', { replace: true });
  }
}
