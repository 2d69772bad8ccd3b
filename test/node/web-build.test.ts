/**
 * What the web build must never ship (DECISIONS.md §Security): a frame sandbox that lets a book's script
 * run with the app's origin (`allow-same-origin` together with `allow-scripts`, which foliate-js sets on
 * every EPUB frame), or an inline script the app's Content-Security-Policy would have to allow. The build
 * is run here into a folder of its own, so the proof never rests on a stale dist/web.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foliateSandbox } from '../../web/vite.config';

const WEB = path.resolve(import.meta.dirname, '../../web');

describe('the web build (DECISIONS.md §Security)', () => {
  let out: string;
  let scripts: Map<string, string>;

  beforeAll(async () => {
    out = mkdtempSync(path.join(tmpdir(), 'longbox-web-build-'));
    await build({
      root: WEB,
      configFile: path.join(WEB, 'vite.config.ts'),
      logLevel: 'silent',
      build: { outDir: out, emptyOutDir: true },
    });
    scripts = new Map(
      readdirSync(path.join(out, 'assets'))
        .filter((file) => file.endsWith('.js'))
        .map((file) => [file, readFileSync(path.join(out, 'assets', file), 'utf8')]),
    );
  }, 120_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('frames EPUB sections without allow-scripts, and nothing in the bundle grants it', () => {
    const sandboxes = [...scripts].flatMap(([file, code]) =>
      [...code.matchAll(/setAttribute\(\s*[`'"]sandbox[`'"]\s*,\s*[`'"]([^`'"]*)[`'"]/g)].map(
        (m) => `${file}: ${m[1]}`,
      ),
    );
    // Both of foliate-js's frames (the paginator's and the fixed-layout renderer's) are in the bundle …
    expect(sandboxes.filter((entry) => /^(paginator|fixed-layout)-/.test(entry))).toHaveLength(2);
    // … and keep the origin without scripts.
    for (const entry of sandboxes) expect(entry).toMatch(/: allow-same-origin$/);
    for (const [file, code] of scripts) expect(code.includes('allow-scripts'), file).toBe(false);
  });

  it('writes no inline script into the app page', () => {
    const html = readFileSync(path.join(out, 'index.html'), 'utf8');
    const scriptTags = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scriptTags.length).toBeGreaterThan(0);
    for (const tag of scriptTags) expect(tag).toMatch(/\ssrc="\/assets\/[^"]+\.js"/);
  });

  it('fails the build when foliate-js no longer sets the sandbox value it rewrites', () => {
    const plugin = foliateSandbox();
    const errors: string[] = [];
    const context = {
      error(message: string): never {
        errors.push(message);
        throw new Error(message);
      },
    };
    const transform = plugin.transform as (this: typeof context, code: string, id: string) => unknown;
    const id = '/x/node_modules/foliate-js/paginator.js';
    expect(() => transform.call(context, "frame.setAttribute('sandbox', 'allow-scripts')", id)).toThrow();
    expect(errors[0]).toContain('foliate-js/paginator.js');
    expect(transform.call(context, "f.setAttribute('sandbox', 'allow-same-origin allow-scripts')", id)).toEqual({
      code: "f.setAttribute('sandbox', 'allow-same-origin')",
      map: null,
    });
    expect(transform.call(context, 'unrelated', '/x/node_modules/other/paginator.js')).toBeNull();
  });
});
