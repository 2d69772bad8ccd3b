/**
 * Navigation from outside components (the API client's expired-session handler, forms after submit).
 * preact-iso's LocationProvider follows `popstate`, so pushing a state and announcing it is enough.
 */
export function navigate(url: string, { replace = false } = {}): void {
  if (replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  dispatchEvent(new PopStateEvent('popstate'));
}

/** The current in-app address, to come back to after logging in. */
export function currentPath(): string {
  return location.pathname + location.search + location.hash;
}

/** `next` from a login URL, accepted only as a same-origin path (never `//evil.example`). */
export function safeNext(next: string | null | undefined): string {
  return next?.startsWith('/') && !next.startsWith('//') ? next : '/';
}
