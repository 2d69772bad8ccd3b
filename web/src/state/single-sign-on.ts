/**
 * Signing in through an identity provider (README "Single sign-on"): the ways this server offers, starting
 * an OIDC sign-in, and picking up the session a sign-in left in this browser. The provider's callback sets
 * only the HttpOnly session cookie (no token ever travels in a URL), and Cloudflare Access signs every
 * request it lets through; `GET /auth/session` says whose session that is and until when (never the token).
 */
import { signal } from '@preact/signals';
import { API_BASE, get, post } from '../api/client';
import type { BrowserSession, OidcLoginResponse, SignInOptions } from '../api/types';
import { signIn } from './session';

export const signInOptions = signal<SignInOptions | null>(null);

let loading: Promise<void> | null = null;

export function loadSignInOptions(): Promise<void> {
  loading ??= get<SignInOptions>('/auth/oidc/providers')
    .then((options) => {
      signInOptions.value = options;
    })
    .catch(() => {
      loading = null; // asked again next time the login screen opens
    });
  return loading;
}

/** Off to the provider's sign-in page; it sends the browser back to `next` signed in. */
export async function startSingleSignOn(provider: string, next: string): Promise<void> {
  const { redirectUrl } = await post<OidcLoginResponse>(`/auth/oidc/${provider}/login`, { redirectUri: next });
  location.assign(redirectUrl);
}

/**
 * Signs the app in with the session this browser already has (an SSO callback's cookie, or Cloudflare
 * Access); false when there is none.
 */
export async function resumeBrowserSession(): Promise<boolean> {
  try {
    const response = await fetch(`${API_BASE}/auth/session`, {
      headers: { Accept: 'application/json' },
      credentials: 'same-origin',
    });
    if (!response.ok) return false;
    const session = (await response.json()) as BrowserSession;
    signIn(session, session.via);
    return true;
  } catch {
    return false;
  }
}
