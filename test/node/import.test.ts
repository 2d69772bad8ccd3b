/**
 * DECISIONS.md §Storage: the `import` command loads a local folder into a library through the API.
 * Runs the real command (tsx scripts/import.ts) against a real local server (test/support/dev-server.ts).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type LongboxServer, startServer } from '../support/dev-server';

const ROOT = path.resolve(__dirname, '../..');
const TSX = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');
const MIB = 1024 * 1024;

const work = mkdtempSync(path.join(tmpdir(), 'longbox-import-'));
const folder = path.join(work, 'books');
let server: LongboxServer | undefined;
let baseUrl = '';
let adminToken = '';

async function call(method: string, route: string, json?: unknown, token = adminToken) {
  const response = await fetch(`${baseUrl}/api/v1${route}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  return { status: response.status, body: (await response.json()) as any };
}

function runImport(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [TSX, 'scripts/import.ts', ...args],
      { cwd: ROOT, env: { ...process.env, LONGBOX_API_KEY: '', ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

function writeFile(relative: string, bytes: Uint8Array | string) {
  const file = path.join(folder, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, bytes);
}

const cbz = (pages: number) =>
  zipSync(
    Object.fromEntries(
      Array.from({ length: pages }, (_, i) => [`${i + 1}.jpg`, new Uint8Array([0xff, 0xd8, i, 0xff, 0xd9])]),
    ),
    { level: 0 },
  );
const bigPdf = new Uint8Array(6 * MIB + 123).fill(0x25);

beforeAll(async () => {
  writeFile('Saga/Saga 001.cbz', cbz(2));
  writeFile('Saga/Saga 002.CBZ', cbz(3));
  writeFile('Loose Book.epub', 'not really an epub');
  writeFile('Big/Omnibus.pdf', bigPdf);
  writeFile('Saga/notes.txt', 'ignored');
  writeFile('.hidden.cbz', 'ignored');
  writeFile('__MACOSX/Saga/._Saga 001.cbz', 'ignored');

  server = await startServer();
  baseUrl = server.url;

  const setup = await call('POST', '/setup/initialize', {
    username: 'admin',
    email: 'admin@example.com',
    password: 'admin-password-1',
  });
  adminToken = setup.body.access_token;
}, 180_000);

afterAll(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

async function apiKey(permissions?: string[]): Promise<string> {
  const res = await call('POST', '/api-keys', {
    name: `import ${Math.random()}`,
    ...(permissions ? { permissions } : {}),
  });
  if (res.status !== 201) throw new Error(`api key: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.key;
}

async function listed(prefix: string): Promise<Record<string, number>> {
  const res = await call('GET', `/filesystem/browse?path=${encodeURIComponent(prefix)}`);
  return Object.fromEntries(res.body.files.map((f: { key: string; size: number }) => [f.key, f.size]));
}

describe('npm run import (DECISIONS.md §Storage)', () => {
  it('creates the library, uploads every book keeping paths (multipart above the threshold), then scans', async () => {
    const key = await apiKey();
    const multipart = ['--multipart-threshold', String(5 * MIB), '--part-size', String(5 * MIB)];
    const first = await runImport(
      [folder, '--library', 'Comics', '--create', '--path', 'comics', '--url', baseUrl, ...multipart],
      {
        LONGBOX_API_KEY: key,
      },
    );
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('Created library "Comics" at comics');
    expect(first.stdout).toContain('Found 4 book file(s)');
    expect(first.stdout).toMatch(/\[\d\/4\] uploaded {2}Big\/Omnibus\.pdf \(6\.0 MB\)/);
    expect(first.stdout).toContain('4 uploaded');
    expect(first.stdout).toMatch(/Scan of "Comics" started|No scan started \(404/);

    expect(await listed('comics/Saga')).toEqual({
      'comics/Saga/Saga 001.cbz': cbz(2).length,
      'comics/Saga/Saga 002.CBZ': cbz(3).length,
    });
    expect(await listed('comics')).toEqual({ 'comics/Loose Book.epub': 18 });
    expect(await listed('comics/Big')).toEqual({ 'comics/Big/Omnibus.pdf': bigPdf.length });

    const again = await runImport([folder, '--library', 'comics', '--url', baseUrl, '--api-key', key]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('skipped   Saga/Saga 001.cbz (already in the library)');
    expect(again.stdout).toContain('0 uploaded (0 B), 4 skipped, 0 failed of 4 file(s)');

    writeFile('Saga/Saga 001.cbz', cbz(5));
    const overwrite = await runImport([
      folder,
      '--library',
      'Comics',
      '--url',
      baseUrl,
      '--api-key',
      key,
      '--overwrite',
    ]);
    expect(overwrite.code).toBe(0);
    expect(overwrite.stdout).toContain('4 uploaded');
    expect((await listed('comics/Saga'))['comics/Saga/Saga 001.cbz']).toBe(cbz(5).length);
  }, 120_000);

  it('reports files the key may not upload and exits 1', async () => {
    const readOnly = await apiKey(['LibrariesRead']);
    const res = await runImport([folder, '--library', 'Comics', '--url', baseUrl, '--api-key', readOnly]);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('FAILED    Saga/Saga 002.CBZ: 403: Missing permission: LibrariesWrite');
    expect(res.stdout).toContain('0 uploaded (0 B), 0 skipped, 4 failed of 4 file(s)');
  }, 60_000);

  it('fails clearly on an unknown library, a bad key, an unreachable server and bad usage', async () => {
    const key = await apiKey();
    const unknown = await runImport([folder, '--library', 'Nope', '--url', baseUrl, '--api-key', key]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No library named "Nope" (existing: "Comics"); pass --create --path <prefix>');

    const badKey = await runImport([folder, '--library', 'Comics', '--url', baseUrl, '--api-key', 'lbx_nope']);
    expect(badKey.code).toBe(1);
    expect(badKey.stderr).toContain('401: Invalid API key format');

    const closed = await runImport([
      folder,
      '--library',
      'Comics',
      '--url',
      `http://127.0.0.1:${await freePort()}`,
      '--api-key',
      key,
    ]);
    expect(closed.code).toBe(1);
    expect(closed.stderr).toMatch(/import: fetch failed \(.*ECONNREFUSED/);

    for (const args of [
      [folder, '--library', 'Comics'],
      [folder, '--api-key', key],
      ['--library', 'Comics', '--api-key', key],
      [path.join(work, 'missing'), '--library', 'Comics', '--api-key', key],
      [folder, '--library', 'Comics', '--api-key', key, '--create'],
      [folder, '--library', 'Comics', '--api-key', key, '--part-size', '1024'],
      [folder, '--library', 'Comics', '--api-key', key, '--bogus'],
    ]) {
      const res = await runImport(args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr).toContain('Usage: npm run import');
    }
  }, 60_000);
});
