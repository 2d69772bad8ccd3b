/** API.md §1 (interactive API reference, off by default) and DECISIONS.md §Names (LONGBOX_API__* keys). */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { api, expectError } from '../support/http';

/** The worker under test runs with docs off (wrangler.toml); these build the app with docs switched on. */
async function fetchWithDocs(path: string, vars: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const ctx = createExecutionContext();
  const docsEnv = { ...env, LONGBOX_API__ENABLE_API_DOCS: 'true', ...vars } as unknown as Env;
  const response = await createApp().fetch(new Request(`http://longbox.test${path}`, { headers }), docsEnv, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

describe('API docs switched off (API.md §1: off by default)', () => {
  it.each(['/docs', '/docs/', '/docs/openapi.json', '/docs/swagger-ui-bundle.js'])(
    '%s is a 404 envelope',
    async (path) => {
      const error = expectError(await api(path), 404, 'NotFound');
      expect(error.details).toBeNull();
    },
  );

  it('never serves the bundled Swagger UI files directly from the assets directory', async () => {
    for (const path of ['/index.html', '/swagger-ui-bundle.js', '/swagger-ui.css']) {
      expectError(await api(path), 404, 'NotFound');
    }
  });
});

describe('API docs switched on (LONGBOX_API__ENABLE_API_DOCS=true)', () => {
  it('serves a Swagger UI page that loads only files from its own docs path', async () => {
    const response = await fetchWithDocs('/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toMatch(/^text\/html/);
    expect(response.headers.get('Content-Security-Policy')).toContain("connect-src 'self'");
    const html = await response.text();
    const sources = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(sources).toEqual([
      '/docs/favicon-32x32.png',
      '/docs/swagger-ui.css',
      '/docs/swagger-ui-bundle.js',
      '/docs/init.js',
    ]);
    expect((await fetchWithDocs('/docs/')).status).toBe(200);
  });

  it('serves the OpenAPI 3.1 document the page reads, with paths relative to /api/v1', async () => {
    const init = await (await fetchWithDocs('/docs/init.js')).text();
    expect(init).toContain('"url":"/docs/openapi.json"');
    expect(init).toContain('"validatorUrl":null');

    const response = await fetchWithDocs('/docs/openapi.json');
    expect(response.status).toBe(200);
    const document = (await response.json()) as any;
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: '/api/v1' }]);
    expect(document.paths['/auth/login'].post.responses['400'].content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/Error',
    });
    expect(Object.keys(document.components.securitySchemes)).toEqual(['bearerAuth', 'apiKeyHeader', 'basicAuth']);
  });

  it('serves the bundled Swagger UI script and stylesheet (no CDN needed)', async () => {
    const script = await fetchWithDocs('/docs/swagger-ui-bundle.js');
    expect(script.status).toBe(200);
    expect(script.headers.get('Content-Type')).toMatch(/javascript/);
    expect(await script.text()).toContain('SwaggerUIBundle');

    const css = await fetchWithDocs('/docs/swagger-ui.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('Content-Type')).toMatch(/^text\/css/);
    const etag = css.headers.get('ETag');
    await css.arrayBuffer();
    if (etag) expect((await fetchWithDocs('/docs/swagger-ui.css', {}, { 'If-None-Match': etag })).status).toBe(304);
  });

  it('answers other files under the docs path with a 404 envelope', async () => {
    for (const path of ['/docs/index.html', '/docs/swagger-ui-bundle.js.map', '/docs/../wrangler.toml']) {
      const response = await fetchWithDocs(path);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({ error: 'NotFound', details: null });
    }
  });

  it('moves to a custom LONGBOX_API__API_DOCS_PATH', async () => {
    const vars = { LONGBOX_API__API_DOCS_PATH: '/reference/api' };
    const page = await fetchWithDocs('/reference/api', vars);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('src="/reference/api/swagger-ui-bundle.js"');
    const spec = await fetchWithDocs('/reference/api/openapi.json', vars);
    expect(spec.status).toBe(200);
    expect(((await spec.json()) as any).openapi).toBe('3.1.0');
    expect((await fetchWithDocs('/reference/api/swagger-ui.css', vars)).status).toBe(200);

    expect(((await (await fetchWithDocs('/docs/openapi.json', vars)).json()) as any).error).toBe('NotFound');
    // Outside the docs path these are ordinary web app paths (DECISIONS.md §Web app): its page, not Swagger's.
    for (const path of ['/docs', '/reference/apix']) {
      const html = await (await fetchWithDocs(path, vars)).text();
      expect(html).toContain('<div id="app"></div>');
      expect(html).not.toContain('swagger');
    }
  });
});
