/** API.md §4 Filesystem (admin only); DECISIONS.md §Storage (R2 is the filesystem). */
import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { createUser, login, setupAdmin } from '../support/factories';
import { api, type Credentials, expectError } from '../support/http';

let admin: Credentials;

beforeEach(async () => {
  admin = (await setupAdmin()).auth;
  for (const key of [
    'comics/Saga/Saga 001.cbz',
    'comics/Saga/Saga 002.cbz',
    'comics/Batman/Batman 001.cbr',
    'comics/One Shot.pdf',
    'manga/Berserk/v01.cbz',
    'readme.epub',
  ]) {
    await env.LIBRARY.put(key, `bytes of ${key}`);
  }
});

describe('GET /filesystem/browse lists folders and files of the library bucket (API.md §4 Filesystem)', () => {
  it('lists the root', async () => {
    const res = await api('/filesystem/browse', { auth: admin });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      path: '',
      parent: null,
      folders: [
        { name: 'comics', path: 'comics' },
        { name: 'manga', path: 'manga' },
      ],
      files: [
        { key: 'readme.epub', name: 'readme.epub', size: 'bytes of readme.epub'.length, uploaded: expect.any(String) },
      ],
      truncated: false,
      cursor: null,
    });
    expect(new Date(res.body.files[0].uploaded).toISOString()).toBe(res.body.files[0].uploaded);
  });

  it('lists a folder given with or without slashes, and knows its parent', async () => {
    for (const path of ['comics', '/comics/', 'comics//']) {
      const res = await api(`/filesystem/browse?path=${encodeURIComponent(path)}`, { auth: admin });
      expect(res.body.path).toBe('comics');
      expect(res.body.parent).toBe('');
      expect(res.body.folders).toEqual([
        { name: 'Batman', path: 'comics/Batman' },
        { name: 'Saga', path: 'comics/Saga' },
      ]);
      expect(res.body.files.map((f: { key: string }) => f.key)).toEqual(['comics/One Shot.pdf']);
    }
    const saga = await api('/filesystem/browse?path=comics/Saga', { auth: admin });
    expect(saga.body.parent).toBe('comics');
    expect(saga.body.files.map((f: { name: string }) => f.name)).toEqual(['Saga 001.cbz', 'Saga 002.cbz']);
    const empty = await api('/filesystem/browse?path=nothing/here', { auth: admin });
    expect(empty.body).toMatchObject({ folders: [], files: [], truncated: false });
  });

  it('pages with the R2 cursor', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `path=comics&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const res = await api(`/filesystem/browse?${query}`, { auth: admin });
      expect(res.status).toBe(200);
      seen.push(
        ...res.body.folders.map((f: { path: string }) => f.path),
        ...res.body.files.map((f: { key: string }) => f.key),
      );
      cursor = res.body.cursor;
      expect(res.body.truncated).toBe(cursor !== null);
      pages += 1;
    } while (cursor && pages < 10);
    expect(pages).toBeGreaterThan(1);
    expect(seen.sort()).toEqual(['comics/Batman', 'comics/One Shot.pdf', 'comics/Saga']);
  });

  it.each([
    ['path=..', 'path'],
    ['path=comics/../manga', 'path'],
    ['path=comics%5Cmanga', 'path'],
    ['path=C:/', 'path'],
    ['path=a%00b', 'path'],
    ['limit=0', 'limit'],
    ['limit=many', 'limit'],
  ])('rejects %s with 400', async (query, field) => {
    const error = expectError(await api(`/filesystem/browse?${query}`, { auth: admin }), 400, 'BadRequest');
    expect(error.details?.[0]?.path).toBe(field);
  });
});

describe('GET /filesystem/drives lists the configured buckets (API.md §4 Filesystem)', () => {
  it('names the library bucket', async () => {
    const res = await api('/filesystem/drives', { auth: admin });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ name: 'longbox-library', binding: 'LIBRARY', path: '' }]);
  });
});

describe('filesystem permissions (API.md §4: admin only)', () => {
  it('answers 401 without credentials and 403 to readers and maintainers', async () => {
    for (const path of ['/filesystem/browse', '/filesystem/drives']) {
      expectError(await api(path), 401, 'Unauthorized');
      for (const role of ['reader', 'maintainer']) {
        const user = await createUser(admin, { role });
        const auth = (await login(user.username, user.password)).auth;
        expectError(await api(path, { auth }), 403, 'Forbidden');
      }
    }
  });
});
