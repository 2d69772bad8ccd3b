/**
 * DECISIONS.md §Web app: the app is served at / by the API worker from its static assets, deep links get
 * the app's page, and the API's own paths (/api/v1, /opds, /koreader, /komga, the docs path) keep their
 * JSON answers instead of the app's page.
 */
import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';

const get = (path: string, init?: RequestInit) => SELF.fetch(`http://longbox.test${path}`, init);

describe('the web app at / (DECISIONS.md §Web app)', () => {
  it.each(['/', '/series/0b4c1f5e-1111-4a4a-9999-000000000000', '/admin/libraries', '/read/abc', '/statistics'])(
    '%s is the app page',
    async (path) => {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('Content-Type')).toMatch(/^text\/html/);
      const html = await response.text();
      expect(html).toContain('<div id="app"></div>');
      expect(html).toContain('rel="manifest"');
      expect(response.headers.get('X-Frame-Options')).toBe('DENY');
    },
  );

  it('serves the built script and the web manifest; hashed files are cached for a year', async () => {
    const html = await (await get('/')).text();
    const script = html.match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
    expect(script).toBeDefined();
    const response = await get(script!);
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/javascript/);
    expect(response.headers.get('Cache-Control')).toContain('immutable');
    await response.arrayBuffer();
    const manifest = await get('/manifest.webmanifest');
    expect(manifest.status).toBe(200);
    expect(((await manifest.json()) as { start_url: string }).start_url).toBe('/');
  });

  it('answers a missing file with 404, not with the app page a browser would run as a script', async () => {
    for (const path of ['/assets/index-gone1234.js', '/favicon.ico']) {
      const response = await get(path);
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: string }).error).toBe('NotFound');
    }
  });

  it.each([
    '/api/v1/nope',
    '/api',
    '/opds/nope',
    '/koreader/nope',
    '/komga/nope',
    '/docs',
    '/docs-assets/swagger-ui.css',
  ])('%s stays the API’s: an error of its own, never the app page', async (path) => {
    const response = await get(path);
    // 404 where nothing matches; the reader-app prefixes may ask for credentials first (401).
    expect([401, 404]).toContain(response.status);
    expect(response.headers.get('Content-Type')).not.toMatch(/text\/html/);
    expect(await response.text()).not.toContain('<div id="app"></div>');
  });

  it('never answers writes with the app page', async () => {
    const response = await get('/series/x', { method: 'POST' });
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: string }).error).toBe('NotFound');
  });
});
