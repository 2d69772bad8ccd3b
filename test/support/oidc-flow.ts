/**
 * The OIDC sign-in driven over plain HTTP, as a browser would make it, for the API-level security tests:
 * a cookie jar per client (each test's "browser"), redirects followed by hand so every hop can be looked
 * at, and the provider's development login form filled in by posting it.
 */
export class Browser {
  private readonly cookies = new Map<string, Map<string, string>>();

  /** fetch with this browser's cookies for the URL's host; redirects are not followed. */
  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const { host } = new URL(url);
    const jar = this.cookies.get(host) ?? new Map<string, string>();
    const headers = new Headers(init.headers);
    if (jar.size > 0) headers.set('Cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const name = pair.slice(0, pair.indexOf('='));
      const value = pair.slice(pair.indexOf('=') + 1);
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /expires=Thu, 01 Jan 1970/i.test(a));
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    this.cookies.set(host, jar);
    return response;
  }

  cookie(url: string, name: string): string | undefined {
    return this.cookies.get(new URL(url).host)?.get(name);
  }
}

/** `POST /auth/oidc/{provider}/login`: the provider's authorization URL (the login cookie lands in the jar). */
export async function startSignIn(
  browser: Browser,
  longbox: string,
  provider: string,
  body?: Record<string, unknown>,
): Promise<string> {
  const response = await browser.fetch(`${longbox}/api/v1/auth/oidc/${provider}/login`, {
    method: 'POST',
    headers: body ? { 'Content-Type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  if (response.status !== 200) throw new Error(`login start → ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { redirectUrl: string }).redirectUrl;
}

/**
 * At the provider: open the authorization URL, sign in on its login form as `login`, and return the
 * callback URL (with `code` and `state`) the provider redirects the browser to — not yet opened.
 */
export async function signInAtProvider(browser: Browser, authorizationUrl: string, login: string): Promise<string> {
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop++) {
    const response = await browser.fetch(url);
    const location = response.headers.get('Location');
    if (response.status === 200 && /name="login"/.test(await response.text())) {
      // The development login form: any password.
      const form = new URLSearchParams({ prompt: 'login', login, password: 'any password' });
      const posted = await browser.fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: form,
      });
      url = new URL(posted.headers.get('Location') ?? '', url).toString();
      continue;
    }
    if (!location) throw new Error(`the provider answered ${response.status} without a redirect at ${url}`);
    const next = new URL(location, url);
    if (next.pathname.endsWith('/callback')) return next.toString();
    url = next.toString();
  }
  throw new Error('the provider never redirected back');
}

/** The whole sign-in up to Longbox's callback answer (303 on success). */
export async function signIn(browser: Browser, longbox: string, provider: string, login: string): Promise<Response> {
  const callback = await signInAtProvider(browser, await startSignIn(browser, longbox, provider), login);
  return browser.fetch(callback);
}
