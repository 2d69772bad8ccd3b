/**
 * A refused sign-in shown to a person: the provider's callback is a browser navigation, so the 401 (or
 * 400) comes as a small page with the plain message and a way back to the login screen, not as JSON text.
 * API clients get the usual error envelope.
 */
import type { Context } from 'hono';
import type { AppError } from '../../lib/errors';

/**
 * A page navigation: `Sec-Fetch-Mode: navigate` (Chromium reports the destination of a navigation
 * redirected from the provider's form as `empty`, so the mode is what tells), or, from a client sending no
 * fetch metadata, an Accept header asking for HTML, which API clients do not send.
 */
export function wantsPage(c: Context): boolean {
  const mode = c.req.header('Sec-Fetch-Mode');
  if (mode !== undefined) return mode === 'navigate';
  return c.req.header('Accept')?.includes('text/html') ?? false;
}

export function signInFailurePage(c: Context, error: AppError): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign-in failed · Longbox</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:15vh auto;padding:0 1rem}a{color:inherit}</style>
</head><body><main>
<h1>Sign-in failed</h1>
<p role="alert">${escapeHtml(error.message)}</p>
<p><a href="/login">Back to the login screen</a></p>
</main></body></html>`;
  return c.html(html, error.status as 400 | 401 | 404 | 503, { 'Cache-Control': 'no-store', ...error.headers });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
