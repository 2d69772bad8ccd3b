/**
 * The admin import API a migration from Komga or Kavita drives (issue 33; docs/DECISIONS.md §Coming from Komga or
 * Kavita, §Imported credentials): books matched by path, KOReader hash or size and name and never guessed;
 * users with their restrictions and their peer's password hash (checked once, then re-hashed); Komga keys that
 * work on /komga only; progress, lists, want-to-read and locked metadata; every batch idempotent. The end-to-end
 * run of the command itself against a real server: test/node/migrate.test.ts.
 */
import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import type { ImportMetadataBody } from '../../src/schemas/import.schema';
import { jpeg, png } from '../fixtures/images';
import { seedBook, seedLibrary, seedProgress, seedSeries } from '../support/catalog-factory';
import { ADMIN, createUser, setupAdmin } from '../support/factories';
import { faultyWorker, r2InternalError } from '../support/faults';
import { api, authHeaders, type Credentials, expectError } from '../support/http';
import { KOMGA } from '../support/komga';
import { makeCbz, putObject } from '../support/library-files';
import { peerUser } from '../support/peers/peer-user';
import { createLibrary, scan } from '../support/scans';

const SOURCE = 'komga:test-instance';

/** Spring Security's documentation example: "password" under `BCryptPasswordEncoder` (Komga's encoder). */
const SPRING_BCRYPT_OF_PASSWORD = '$2a$10$dXJ3SW6G7P50lGmMkkmwe.20cQQubK3.HZWzG3YB1tlRy.fqvM/BG';

/**
 * ASP.NET Core Identity's own test vectors (dotnet/aspnetcore `PasswordHasherTest`), all of "my password": what
 * Kavita (an `IdentityUser<int>`) stores. The SHA-512/100,000 one is .NET's default since .NET 7; the SHA-256
 * one asks more iterations than Workers' PBKDF2 allows.
 */
const ASPNET = {
  v2Sha1: 'AAABAgMEBQYHCAkKCwwNDg+ukCEMDf0yyQ29NYubggHIVY0sdEUfdyeM+E1LtH1uJg==',
  v3Sha1: 'AQAAAAAAAAD6AAAAEAhftMyfTJylOlZT+eEotFXd1elee8ih5WsjXaR3PA9M',
  v3Sha256Iter250k:
    'AQAAAAEAA9CQAAAAIESkQuj2Du8Y+kbc5lcN/W/3NiAZFEm11P27nrSN5/tId+bR1SwV8CO1Jd72r4C08OLvplNlCDc3oQZ8efcW+jQ=',
  v3Sha512Iter100k: 'AQAAAAIAAYagAAAAEAABAgMEBQYHCAkKCwwNDg/Q8A0WMKbtHQJQ2DHCdoEeeFBrgNlldq6vH4qX/CGqGQ==',
  /** The test's "incorrect password" payload: a valid header around a key that matches nothing. */
  wrong: 'AQAAAAAAAAD6AAAAEAhftMyfTJyAAAAAAAAAAAAAAAAAAAih5WsjXaR3PA9M',
};

async function sha512Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-512', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

async function importUsers(auth: Credentials, users: unknown[], mergeExisting = false) {
  const res = await api('/admin/import/users', { auth, json: { source: SOURCE, mergeExisting, users } });
  expect(res.status, res.text).toBe(200);
  return res.body.results as Array<{ foreignId: string; id: string | null; outcome: string; reason: string | null }>;
}

/**
 * An `/admin/import/metadata` body: the peer's series `s1`, matched to `seriesId`, with the fields it locked and
 * the sharing label "grown-ups".
 */
function grownUpsSeriesMetadata(
  seriesId: string,
  locked: ImportMetadataBody['series'][number]['locked'],
  books: ImportMetadataBody['books'] = [],
): ImportMetadataBody {
  return { source: SOURCE, series: [{ foreignId: 's1', seriesId, locked, sharingLabels: ['grown-ups'] }], books };
}

async function storedHash(username: string): Promise<string> {
  const row = await env.DB.prepare('SELECT password_hash AS h FROM users WHERE lower(username) = ?')
    .bind(username.toLowerCase())
    .first<{ h: string }>();
  return row?.h ?? '';
}

/**
 * An import sent through a worker whose database fails, with `error`, the batch holding a statement `failing`
 * matches; answered once the request's background work has settled.
 */
async function importFailing(path: string, json: unknown, failing: RegExp, error: string) {
  const worker = faultyWorker({
    d1: ({ sql }) => (sql.some((statement) => failing.test(statement)) ? new Error(error) : undefined),
  });
  const res = await worker.fetch(path, {
    method: 'POST',
    auth: await worker.signIn(ADMIN),
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(json),
  });
  await worker.settle();
  return res;
}

/** A library with books at known paths under its prefix, as a scan would have stored them. */
async function shelf() {
  const library = await seedLibrary({ name: 'Comics' });
  const prefix = `lib-${library.id.slice(0, 8)}`;
  const saga = await seedSeries(library, { title: 'Saga' });
  const book = (title: string, extra: Parameters<typeof seedBook>[1] = {}) =>
    seedBook(saga, { title, path: `${prefix}/Saga/${title}.cbz`, fileName: `${title}.cbz`, ...extra });
  return {
    library,
    saga,
    one: await book('Saga 001', { readerHash: 'aaaa0000aaaa0000aaaa0000aaaa0000', fileSize: 1111 }),
    two: await book('Saga 002', { readerHash: 'bbbb0000bbbb0000bbbb0000bbbb0000', fileSize: 2222 }),
    three: await book('Saga 003', { fileSize: 3333 }),
    twinA: await book('Twin A', { readerHash: 'cccc0000cccc0000cccc0000cccc0000', fileSize: 4444 }),
    twinB: await book('Twin B', { readerHash: 'cccc0000cccc0000cccc0000cccc0000', fileSize: 4444 }),
  };
}

describe('admin import API: books', () => {
  it('matches by path, then KOReader hash, then size and name; reports why the others did not match', async () => {
    const { auth } = await setupAdmin();
    const s = await shelf();
    const candidate = (ref: string, fields: Record<string, unknown>) => ({
      ref,
      libraryId: s.library.id,
      path: null,
      readerHash: null,
      fileSize: null,
      fileName: null,
      ...fields,
    });
    const res = await api('/admin/import/books/match', {
      auth,
      json: {
        books: [
          candidate('p', { path: 'Saga/Saga 001.cbz', readerHash: 'ffff0000ffff0000ffff0000ffff0000' }),
          // Moved elsewhere on the peer: its hash finds it (stored hashes are compared ignoring case).
          candidate('h', { path: 'Old Folder/Saga 002.cbz', readerHash: 'BBBB0000BBBB0000BBBB0000BBBB0000' }),
          candidate('s', { path: 'Other/x.cbz', fileName: 'Saga 003.cbz', fileSize: 3333 }),
          // Two books share this hash, size and name's size: nothing is guessed.
          candidate('twin', { readerHash: 'cccc0000cccc0000cccc0000cccc0000', fileName: 'Twin.cbz', fileSize: 4444 }),
          candidate('unmapped', { libraryId: null, path: 'Saga/Saga 001.cbz' }),
          candidate('nothing', { path: 'Nope/Nope.cbz', fileName: 'Nope.cbz', fileSize: 1 }),
        ],
      },
    });
    expect(res.status).toBe(200);
    const by = Object.fromEntries(res.body.matches.map((m: { ref: string }) => [m.ref, m]));
    expect(by.p).toMatchObject({ bookId: s.one.id, seriesId: s.saga.id, by: 'path', reason: null });
    expect(by.h).toMatchObject({ bookId: s.two.id, by: 'readerHash' });
    expect(by.s).toMatchObject({ bookId: s.three.id, by: 'sizeAndName' });
    expect(by.twin).toMatchObject({ bookId: null, by: null });
    expect(by.twin.reason).toContain('several books have its KOReader hash');
    expect(by.unmapped.bookId).toBeNull();
    expect(by.unmapped.reason).toContain('its library is not mapped to a Longbox library');
    expect(by.nothing.reason).toBe('no book at Nope/Nope.cbz; no KOReader hash; no book named Nope.cbz of 1 bytes');
    expect(res.body.matches.map((m: { ref: string }) => m.ref)).toEqual(['p', 'h', 's', 'twin', 'unmapped', 'nothing']);
  });

  it('is for admins only', async () => {
    const { auth } = await setupAdmin();
    const maintainer = await createUser(auth, { role: 'maintainer' });
    const res = await api('/admin/import/books/match', {
      auth: { basic: { username: maintainer.username, password: maintainer.password } },
      json: { books: [] },
    });
    expectError(res, 403, 'Forbidden');
  });
});

describe('admin import API: users and credentials', () => {
  it('creates users with their restrictions, once; an existing name is skipped unless merged', async () => {
    const { auth } = await setupAdmin();
    const kids = await seedLibrary({ name: 'Kids' });
    await createUser(auth, { username: 'alice', email: 'alice@elsewhere.test' });
    const users = [
      peerUser('kid', {
        sharedAllLibraries: false,
        libraryIds: [kids.id],
        ageRestriction: { age: 10, restriction: 'ALLOW_ONLY' },
        labelsAllow: ['Family', 'scary'],
        labelsExclude: ['Scary'],
      }),
      peerUser('alice'),
      peerUser('admin2', { role: 'admin', email: 'admin@example.com' }),
    ];
    const first = await importUsers(auth, users);
    expect(first.map((r) => r.outcome)).toEqual(['created', 'skipped', 'skipped']);
    expect(first[1]?.reason).toBe(
      'a Longbox account has the name alice: skipped (run with --merge-users to import into it)',
    );
    expect(first[2]?.reason).toContain('the e-mail address admin@example.com');

    const kid = await api(`/users/${first[0]?.id}`, { auth });
    expect(kid.body).toMatchObject({
      username: 'kid',
      role: 'reader',
      sharedAllLibraries: false,
      sharedLibraryIds: [kids.id],
      ageRestriction: { age: 10, restriction: 'ALLOW_ONLY' },
    });
    // A label both allowed and excluded is excluded (Komga's rule); names are matched ignoring case, the first
    // spelling naming a new label.
    expect(
      kid.body.sharingTags.map((t: { name: string; accessMode: string }) => `${t.name}:${t.accessMode}`).sort(),
    ).toEqual(['Family:allow', 'scary:deny']);

    const again = await importUsers(auth, users, true);
    expect(again.map((r) => r.outcome)).toEqual(['unchanged', 'merged', 'merged']);
    expect(again[0]?.id).toBe(first[0]?.id);
    const third = await importUsers(auth, users, true);
    expect(third.map((r) => r.outcome)).toEqual(['unchanged', 'unchanged', 'unchanged']);
    expect((await api('/users?pageSize=50', { auth })).body.data).toHaveLength(3);
  });

  it('an unknown library is a 400 naming it, and nothing is created', async () => {
    const { auth } = await setupAdmin();
    const unknown = crypto.randomUUID();
    const res = await api('/admin/import/users', {
      auth,
      json: {
        source: SOURCE,
        mergeExisting: false,
        users: [peerUser('user-a'), peerUser('user-b', { sharedAllLibraries: false, libraryIds: [unknown] })],
      },
    });
    expectError(res, 400, 'BadRequest');
    expect(res.body.details).toEqual([{ path: 'users.1.libraryIds.0', message: `no library ${unknown}` }]);
    expect((await api('/users', { auth })).body.data).toHaveLength(1);
  });

  it('a label an admin made here before is the one the imported users are granted, whatever letters it has', async () => {
    const { auth } = await setupAdmin();
    // SQLite folds only ASCII letters (`lower()`, `COLLATE NOCASE`): a label with a capital Ä is one the lookup
    // must find by the unique index's own rule, or the import makes it again and the name is taken.
    const made = await api('/admin/sharing-tags', { auth, method: 'POST', json: { name: 'Ärzte' } });
    expect(made.status, made.text).toBe(201);
    const [kid] = await importUsers(auth, [peerUser('kid', { labelsExclude: ['Ärzte'], labelsAllow: ['ÄRZTE'] })]);
    expect(kid?.outcome).toBe('created');
    const granted = (await api(`/users/${kid?.id}`, { auth })).body.sharingTags;
    expect(granted).toEqual([{ sharingTagId: made.body.id, name: 'Ärzte', accessMode: 'deny' }]);
    expect((await api('/admin/sharing-tags', { auth })).body.data.map((t: { name: string }) => t.name)).toEqual([
      'Ärzte',
    ]);
  });

  it('a label made by someone else between the import’s read and its write is a 409, and nothing is written', async () => {
    const { auth } = await setupAdmin();
    // The batch's insert of the label skips the name made meanwhile, and its grant names the id it meant to make:
    // the database refuses the grant's foreign key (what D1 answers then, injected: the moment cannot be timed).
    const res = await importFailing(
      '/admin/import/users',
      { source: SOURCE, mergeExisting: false, users: [peerUser('kid', { labelsExclude: ['Gore'] })] },
      /insert into "sharing_labels"/i,
      'D1_ERROR: FOREIGN KEY constraint failed: SQLITE_CONSTRAINT',
    );
    expect(res.status).toBe(409);
    const body = (await res.json()) as { error: string; message: string; details: unknown };
    expect(body).toEqual({ error: 'Conflict', message: expect.stringContaining('Send it again'), details: null });
    expect((await api('/users', { auth })).body.data).toHaveLength(1);
    expect((await importUsers(auth, [peerUser('kid', { labelsExclude: ['Gore'] })]))[0]?.outcome).toBe('created');
  });

  it('a Komga bcrypt password signs in, by login and by Basic on /komga, and is then re-hashed', async () => {
    const { auth } = await setupAdmin();
    const [kept, typo] = await importUsers(auth, [
      peerUser('mum', { password: { format: 'bcrypt', hash: SPRING_BCRYPT_OF_PASSWORD } }),
      peerUser('dad', { password: { format: 'bcrypt', hash: 'not-a-hash' } }),
    ]);
    expect(kept?.outcome).toBe('created');
    expect(typo).toMatchObject({ outcome: 'skipped', reason: 'the password hash is not a bcrypt hash' });
    expect(await storedHash('mum')).toBe(SPRING_BCRYPT_OF_PASSWORD);

    expectError(await api('/auth/login', { json: { username: 'mum', password: 'Password' } }), 401, 'Unauthorized');
    expect(await storedHash('mum')).toBe(SPRING_BCRYPT_OF_PASSWORD);
    const login = await api('/auth/login', { json: { username: 'mum', password: 'password' } });
    expect(login.status).toBe(200);
    expect(await storedHash('mum')).toMatch(/^\$argon2id\$v=19\$/);
    // The same password keeps working against Longbox's own hash, by e-mail on /komga as Komga's apps sign in.
    const me = await api(`${KOMGA}/api/v2/users/me`, {
      auth: { basic: { username: 'mum@home.test', password: 'password' } },
    });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe('mum@home.test');
  });

  it('Kavita’s ASP.NET Identity hashes (v2, v3 with SHA-1, SHA-256 and SHA-512) sign in and are re-hashed', async () => {
    const { auth } = await setupAdmin();
    const hashes = Object.entries(ASPNET);
    const results = await importUsers(
      auth,
      hashes.map(([name, hash]) => peerUser(name.toLowerCase(), { password: { format: 'aspnet-identity', hash } })),
    );
    expect(results.every((r) => r.outcome === 'created')).toBe(true);
    for (const [name] of hashes) {
      const username = name.toLowerCase();
      expect(await storedHash(username)).toMatch(/^\$aspnet-identity\$/);
      const res = await api('/auth/login', { json: { username, password: 'my password' } });
      if (name === 'wrong') {
        expectError(res, 401, 'Unauthorized');
        expect(await storedHash(username)).toMatch(/^\$aspnet-identity\$/);
      } else {
        expect(res.status, name).toBe(200);
        expect(await storedHash(username)).toMatch(/^\$argon2id\$/);
      }
    }
    const bad = await importUsers(auth, [
      peerUser('short', {
        password: { format: 'aspnet-identity', hash: 'AQAAAAIAAAAyAAAAEOMwvh3+FZxqkdMBz2ekgGhwQ4A=' },
      }),
    ]);
    expect(bad[0]).toMatchObject({ outcome: 'skipped', reason: 'the password hash is not a aspnet-identity hash' });
  }, 120_000); // five password hashes re-hashed with argon2id: seconds of CPU, more on a loaded machine

  it('a Komga API key reads /komga with its owner’s access, is refused on /api/v1 with the format error, and can be revoked', async () => {
    const { auth } = await setupAdmin();
    const library = await seedLibrary({ name: 'Comics' });
    await seedSeries(library, { title: 'Visible' });
    const [owner] = await importUsers(auth, [
      peerUser('reader', { password: { format: 'bcrypt', hash: SPRING_BCRYPT_OF_PASSWORD } }),
    ]);
    const komgaKey = '0123456789abcdef0123456789abcdef';
    const hash = await sha512Hex(komgaKey);
    const imported = await api('/admin/import/api-keys', {
      auth,
      json: {
        source: SOURCE,
        keys: [
          { foreignId: 'k1', userId: owner?.id, name: 'Mihon', sha512: hash, createdAt: '2024-05-01T10:00:00Z' },
          // The same hash under another peer id: it would be the same key, so it collides.
          { foreignId: 'k2', userId: owner?.id, name: 'Copy', sha512: hash, createdAt: '2024-05-01T10:00:00Z' },
        ],
      },
    });
    expect(imported.status).toBe(200);
    expect(imported.body.results.map((r: { outcome: string }) => r.outcome)).toEqual(['created', 'skipped']);
    expect(imported.body.results[1].reason).toBe('collides with an API key already in Longbox: not imported');
    const notAHash = await api('/admin/import/api-keys', {
      auth,
      json: {
        source: SOURCE,
        keys: [{ foreignId: 'k3', userId: owner?.id, name: 'X', sha512: komgaKey, createdAt: '2024-05-01T10:00:00Z' }],
      },
    });
    expectError(notAHash, 400, 'BadRequest');
    expect(notAHash.body.details[0].path).toBe('keys.0.sha512');

    const series = await api(`${KOMGA}/api/v1/series`, { headers: { 'X-API-Key': komgaKey } });
    expect(series.status).toBe(200);
    expect(series.body.content.map((s: { name: string }) => s.name)).toEqual(['Visible']);
    const sent: Array<Record<string, string>> = [{ 'X-API-Key': komgaKey }, { Authorization: `Bearer ${komgaKey}` }];
    for (const headers of sent) {
      const refused = await api('/api/v1/series', { headers });
      expectError(refused, 401, 'Unauthorized');
      expect(refused.body.message).toBe('Invalid API key format');
    }

    // The owner sees it among their keys and revokes it like any other.
    const owned = await api('/api-keys', { auth: { basic: { username: 'reader', password: 'password' } } });
    expect(owned.body).toHaveLength(1);
    expect(owned.body[0]).toMatchObject({ name: 'Mihon', key_prefix: `komga_${hash.slice(0, 8)}` });
    const revoke = await api(`/api-keys/${owned.body[0].id}`, {
      method: 'DELETE',
      auth: { basic: { username: 'reader', password: 'password' } },
    });
    expect(revoke.status).toBe(204);
    expect((await api(`${KOMGA}/api/v1/series`, { headers: { 'X-API-Key': komgaKey } })).status).toBe(401);
    // Revoked stays revoked: the key is remembered as imported, a second run does not bring it back.
    const rerun = await api('/admin/import/api-keys', {
      auth,
      json: {
        source: SOURCE,
        keys: [{ foreignId: 'k1', userId: owner?.id, name: 'Mihon', sha512: hash, createdAt: '2024-05-01T10:00:00Z' }],
      },
    });
    expect(rerun.body.results[0].outcome).toBe('unchanged');
    expect((await api(`${KOMGA}/api/v1/series`, { headers: { 'X-API-Key': komgaKey } })).status).toBe(401);
  });
});

describe('admin import API: reading', () => {
  it('progress is written once, keeps newer Longbox progress, and keeps the series counts true', async () => {
    const { auth, userId } = await setupAdmin();
    const s = await shelf();
    const entry = (bookId: string, page: number, completed: boolean, updatedAt: string) => ({
      userId,
      bookId,
      page,
      completed,
      startedAt: '2024-01-01T10:00:00Z',
      updatedAt,
      completedAt: completed ? updatedAt : null,
      percentage: null,
      locator: null,
      epubSpineIndex: null,
      device: { id: 'komelia-1', name: 'Komelia' },
    });
    // Read in Longbox after the peer's last write: kept.
    await seedProgress(userId, s.three.id, { currentPage: 5, updatedAt: '2025-06-01T00:00:00.000Z' });
    const body = {
      source: SOURCE,
      entries: [
        entry(s.one.id, 20, true, '2024-02-01T10:00:00Z'),
        entry(s.two.id, 7, false, '2024-03-01T10:00:00Z'),
        entry(s.three.id, 12, false, '2024-03-02T10:00:00Z'),
        entry(crypto.randomUUID(), 1, false, '2024-03-02T10:00:00Z'),
        // Beyond the book's 20 pages: the last page.
        entry(s.twinA.id, 99, false, '2024-03-03T10:00:00Z'),
      ],
    };
    const first = await api('/admin/import/progress', { auth, json: body });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ written: 3, unchanged: 1 });
    expect(first.body.skipped).toEqual([{ index: 3, reason: expect.stringMatching(/^no book /) }]);
    const again = await api('/admin/import/progress', { auth, json: body });
    expect(again.body).toMatchObject({ written: 0, unchanged: 4 });

    const one = (await api(`/books/${s.one.id}/progress`, { auth })).body;
    expect(one).toMatchObject({ currentPage: 20, completed: true, completedAt: '2024-02-01T10:00:00.000Z' });
    expect((await api(`/books/${s.two.id}/progress`, { auth })).body).toMatchObject({
      currentPage: 7,
      completed: false,
      progressPercentage: 0.35,
      updatedAt: '2024-03-01T10:00:00.000Z',
    });
    expect((await api(`/books/${s.three.id}/progress`, { auth })).body.currentPage).toBe(5);
    expect((await api(`/books/${s.twinA.id}/progress`, { auth })).body.currentPage).toBe(20);

    const inProgress = await api('/series/list', {
      auth,
      json: { condition: { readStatus: { operator: 'is', value: 'in_progress' } } },
    });
    expect(inProgress.body.data.map((x: { id: string }) => x.id)).toEqual([s.saga.id]);
    const { results } = await env.DB.prepare(
      'SELECT read_count, in_progress_count FROM series_read_progress WHERE user_id = ? AND series_id = ?',
    )
      .bind(userId, s.saga.id)
      .all();
    expect(results).toEqual([{ read_count: 1, in_progress_count: 3 }]);
  });

  it('want-to-read is added once per user, in order', async () => {
    const { auth, userId } = await setupAdmin();
    const s = await shelf();
    const json = {
      source: SOURCE,
      entries: [
        { userId, seriesId: s.saga.id, bookId: null },
        { userId, seriesId: null, bookId: s.two.id },
        { userId, seriesId: crypto.randomUUID(), bookId: null },
      ],
    };
    expect((await api('/admin/import/want-to-read', { auth, json })).body).toMatchObject({ written: 2, unchanged: 1 });
    expect((await api('/admin/import/want-to-read', { auth, json })).body).toMatchObject({ written: 0, unchanged: 3 });
    const queue = await api('/want-to-read', { auth });
    expect(queue.body.data.map((e: { id: string }) => e.id)).toEqual([s.saga.id, s.two.id]);
  });
});

describe('admin import API: lists and metadata', () => {
  it('shared lists and a user’s own lists keep their order; an own list is its owner’s alone', async () => {
    const { auth } = await setupAdmin();
    const s = await shelf();
    const [kid, other] = await importUsers(auth, [
      peerUser('kid', { password: { format: 'bcrypt', hash: SPRING_BCRYPT_OF_PASSWORD } }),
      peerUser('other', { password: { format: 'bcrypt', hash: SPRING_BCRYPT_OF_PASSWORD } }),
    ]);
    const kidAuth = { basic: { username: 'kid', password: 'password' } };
    const otherAuth = { basic: { username: 'other', password: 'password' } };
    const lists = [
      {
        foreignId: 'r1',
        kind: 'readList',
        ownerId: null,
        name: 'Arc',
        summary: 'The arc',
        ordered: true,
        memberIds: [s.three.id, s.one.id, crypto.randomUUID(), s.two.id],
      },
      {
        foreignId: 'r2',
        kind: 'readList',
        ownerId: kid?.id,
        name: 'Arc',
        summary: null,
        ordered: true,
        memberIds: [s.two.id, s.one.id],
      },
      {
        foreignId: 'c1',
        kind: 'collection',
        ownerId: null,
        name: 'Favourites',
        summary: null,
        ordered: false,
        memberIds: [s.saga.id],
      },
    ];
    const first = await api('/admin/import/lists', { auth, json: { source: SOURCE, lists } });
    expect(first.status, first.text).toBe(200);
    expect(first.body.results.map((r: { outcome: string }) => r.outcome)).toEqual(['created', 'created', 'created']);
    expect(first.body.results[0].reason).toBe('1 member(s) not found in Longbox were left out');

    const bookIds = async (who: Credentials, id: string) =>
      (await api(`/readlists/${id}/books`, { auth: who })).body.data.map((b: { id: string }) => b.id);
    const [shared, own] = first.body.results.map((r: { id: string }) => r.id);
    expect(await bookIds(kidAuth, shared)).toEqual([s.three.id, s.one.id, s.two.id]);
    expect(await bookIds(kidAuth, own)).toEqual([s.two.id, s.one.id]);
    // The kid sees both; another user and the admin see only the shared one, and the own one is missing to them.
    const names = async (who: Credentials) =>
      (await api('/readlists', { auth: who })).body.data.map((l: { id: string }) => l.id).sort();
    expect(await names(kidAuth)).toEqual([shared, own].sort());
    expect(await names(otherAuth)).toEqual([shared]);
    expect(await names(auth)).toEqual([shared]);
    expectError(await api(`/readlists/${own}`, { auth: otherAuth }), 404, 'NotFound');
    expect((await api(`${KOMGA}/api/v1/readlists/${own}`, { auth: otherAuth })).status).toBe(404);
    expect(other?.outcome).toBe('created');

    const again = await api('/admin/import/lists', { auth, json: { source: SOURCE, lists } });
    expect(again.body.results.map((r: { outcome: string }) => r.outcome)).toEqual([
      'unchanged',
      'unchanged',
      'unchanged',
    ]);
    // A list of another peer id with a name the owner already has is skipped, not merged.
    const clash = await api('/admin/import/lists', {
      auth,
      json: { source: SOURCE, lists: [{ ...lists[2], foreignId: 'c2', name: 'FAVOURITES' }] },
    });
    expect(clash.body.results[0]).toMatchObject({
      outcome: 'skipped',
      reason: 'a collection named "FAVOURITES": a shared one exists (rename one and run again)',
    });
    // Deleting the owner takes their lists with them.
    expect((await api(`/users/${kid?.id}`, { auth, method: 'DELETE' })).status).toBe(204);
    const left = await env.DB.prepare('SELECT count(*) AS n FROM read_lists WHERE owner_user_id IS NOT NULL').first();
    expect(left).toEqual({ n: 0 });
  });

  it('locked metadata and sharing labels land locked on the matched series, once', async () => {
    const { auth } = await setupAdmin();
    const s = await shelf();
    const json = grownUpsSeriesMetadata(
      s.saga.id,
      { title: 'Saga (Image)', summary: 'Edited on Komga', genres: ['space opera'], ageRating: 16 },
      [{ foreignId: 'b1', bookId: s.one.id, locked: { title: 'Chapter One' } }],
    );
    const first = await api('/admin/import/metadata', { auth, json });
    expect(first.status, first.text).toBe(200);
    expect(first.body.results.map((r: { outcome: string }) => r.outcome)).toEqual(['created', 'created']);
    const meta = (await api(`/series/${s.saga.id}/metadata`, { auth })).body;
    expect(meta).toMatchObject({
      title: 'Saga (Image)',
      summary: 'Edited on Komga',
      genres: ['space opera'],
      ageRating: 16,
    });
    expect(meta.locks).toMatchObject({ title: true, summary: true, genres: true, ageRating: true, publisher: false });
    expect(
      (await api(`/series/${s.saga.id}/sharing-tags`, { auth })).body.map((t: { name: string }) => t.name),
    ).toEqual(['grown-ups']);
    expect((await api(`/books/${s.one.id}/metadata`, { auth })).body).toMatchObject({
      title: 'Chapter One',
      locks: { title: true },
    });

    // An edit made in Longbox since is kept by a second run.
    await api(`/series/${s.saga.id}/metadata`, { auth, method: 'PATCH', json: { title: 'Saga' } });
    const again = await api('/admin/import/metadata', { auth, json });
    expect(again.body.results.map((r: { outcome: string }) => r.outcome)).toEqual(['unchanged', 'unchanged']);
    expect((await api(`/series/${s.saga.id}/metadata`, { auth })).body.title).toBe('Saga');
  });

  it('a sharing label an admin made here before is the one put on the series, whatever letters it has', async () => {
    const { auth } = await setupAdmin();
    const s = await shelf();
    const made = await api('/admin/sharing-tags', { auth, method: 'POST', json: { name: 'Ärzte' } });
    expect(made.status, made.text).toBe(201);
    const res = await api('/admin/import/metadata', {
      auth,
      json: {
        source: SOURCE,
        series: [{ foreignId: 's1', seriesId: s.saga.id, locked: {}, sharingLabels: ['Ärzte'] }],
        books: [],
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.results.map((r: { outcome: string }) => r.outcome)).toEqual(['created']);
    expect((await api(`/series/${s.saga.id}/sharing-tags`, { auth })).body.map((t: { id: string }) => t.id)).toEqual([
      made.body.id,
    ]);
    expect((await api('/admin/sharing-tags', { auth })).body.data).toHaveLength(1);
  });

  it('sharing labels, the rating and the fields are one write: refused, none of them lands', async () => {
    const { auth } = await setupAdmin();
    const s = await shelf();
    const json = grownUpsSeriesMetadata(s.saga.id, { summary: 'Edited on Komga', ageRating: 16 });
    // The database drops its connection as the import's write arrives (D1's documented transient error).
    const refused = await importFailing(
      '/admin/import/metadata',
      json,
      /insert into "import_origins"/i,
      'D1_ERROR: Network connection lost.',
    );
    expect(refused.status).toBe(503);
    // No label was made or put on the series, no rating locked: the next run starts from nothing done.
    expect((await api('/admin/sharing-tags', { auth })).body.data).toEqual([]);
    expect((await api(`/series/${s.saga.id}/sharing-tags`, { auth })).body).toEqual([]);
    const meta = (await api(`/series/${s.saga.id}/metadata`, { auth })).body;
    expect(meta.locks).toMatchObject({ summary: false, ageRating: false });
    const again = await api('/admin/import/metadata', { auth, json });
    expect(again.body.results.map((r: { outcome: string }) => r.outcome)).toEqual(['created']);
    expect((await api(`/series/${s.saga.id}/metadata`, { auth })).body).toMatchObject({
      summary: 'Edited on Komga',
      ageRating: 16,
      locks: { summary: true, ageRating: true },
    });
  });
});

/** A scanned book (its generated cover made from its first page) and its series. */
async function scannedBook(auth: Credentials) {
  await putObject('comics/Saga/Saga 001.cbz', await makeCbz(2, { Series: 'Saga', Number: '1' }, [60, 90]));
  await scan(auth, await createLibrary(auth));
  const seriesId = (await api('/series', { auth })).body.data[0].id as string;
  const bookId = (await api(`/series/${seriesId}/books`, { auth })).body.data[0].id as string;
  return { seriesId, bookId };
}

const coverPath = (kind: 'book' | 'series', id: string, foreignId: string) =>
  `/admin/import/covers?source=${encodeURIComponent(SOURCE)}&foreignId=${foreignId}&kind=${kind}&id=${id}`;
const coverImport = (image: Uint8Array) => ({
  method: 'POST',
  headers: { 'Content-Type': 'application/octet-stream' },
  body: image,
});

/** The cover the thumbnail route shows now (its ETag; the generated cover and each upload have their own). */
async function shownCover(auth: Credentials, kind: 'books' | 'series', id: string): Promise<string | null> {
  const shown = await SELF.fetch(`http://longbox.test/api/v1/${kind}/${id}/thumbnail`, { headers: authHeaders(auth) });
  expect(shown.status).toBe(200);
  await shown.arrayBuffer();
  return shown.headers.get('ETag');
}

/** The covers listed for a book or series: [id, selected] each. */
async function coverList(auth: Credentials, kind: 'books' | 'series', id: string) {
  const { covers } = (await api(`/${kind}/${id}/covers`, { auth })).body;
  return covers.map((c: { id: string; isSelected: boolean }) => [c.id, c.isSelected]);
}

/** Storage refusing to store any uploaded cover's image (R2 unreachable for `covers/…`). */
const coverImagesRefused = () => ({
  r2Put: ({ bucket, key }: { bucket: string; key: string }) =>
    bucket === 'CACHE' && key.startsWith('covers/') ? r2InternalError() : undefined,
});

describe('admin import API: covers', () => {
  it('an uploaded cover of the peer becomes the selected cover, once', async () => {
    const { auth } = await setupAdmin();
    const { bookId } = await scannedBook(auth);
    const generated = await shownCover(auth, 'books', bookId);
    const first = await api(coverPath('book', bookId, 'c1'), { auth, ...coverImport(jpeg(120, 180)) });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ foreignId: 'c1', outcome: 'created' });
    const coverId = first.body.id as string;
    expect(await coverList(auth, 'books', bookId)).toEqual([[coverId, true]]);
    const shown = await shownCover(auth, 'books', bookId);
    expect(shown).not.toBe(generated);
    // The thumbnail shown is the imported cover's own.
    const own = await api(`/books/${bookId}/covers/${coverId}/image`, { auth });
    expect(own.headers.get('ETag')).toBe(shown);

    const again = await api(coverPath('book', bookId, 'c1'), { auth, ...coverImport(jpeg(120, 180)) });
    expect(again.body).toMatchObject({ foreignId: 'c1', id: coverId, outcome: 'unchanged' });
    expect(await coverList(auth, 'books', bookId)).toEqual([[coverId, true]]);
  });

  it('when storage refuses the images, the cover shown before stays and the next run imports it', async () => {
    const { auth } = await setupAdmin();
    const { bookId, seriesId } = await scannedBook(auth);
    // The book shows a cover uploaded here; the series its first book's.
    const mine = await api(`/books/${bookId}/cover`, { method: 'POST', auth, body: formOf(png(90, 120, 3)) });
    expect(mine.status, mine.text).toBe(200);
    const bookCover = await shownCover(auth, 'books', bookId);
    const seriesCover = await shownCover(auth, 'series', seriesId);

    const worker = faultyWorker(coverImagesRefused());
    const through = await worker.signIn(ADMIN);
    for (const [kind, id, foreignId] of [
      ['book', bookId, 'b-cover'],
      ['series', seriesId, 's-cover'],
    ] as const) {
      const refused = await worker.fetch(coverPath(kind, id, foreignId), {
        auth: through,
        ...coverImport(jpeg(64, 96)),
      });
      expect(refused.status, await refused.clone().text()).toBe(503);
      expect(refused.headers.get('Retry-After')).toMatch(/^\d+$/);
    }
    await worker.settle();
    // Nothing of the refused covers is left: the row written beside the images is taken back, with its selection.
    expect(await coverList(auth, 'books', bookId)).toEqual([[mine.body.id, true]]);
    expect(await coverList(auth, 'series', seriesId)).toEqual([]);
    expect(await shownCover(auth, 'books', bookId)).toBe(bookCover);
    expect(await shownCover(auth, 'series', seriesId)).toBe(seriesCover);
    expect((await api(`/series/${seriesId}`, { auth })).body).toMatchObject({
      hasCustomCover: false,
      selectedCoverSource: 'first_book',
    });

    // Run again once storage answers, both are imported (not "unchanged": the refused run was not remembered).
    for (const [kind, id, foreignId] of [
      ['book', bookId, 'b-cover'],
      ['series', seriesId, 's-cover'],
    ] as const) {
      const imported = await api(coverPath(kind, id, foreignId), { auth, ...coverImport(jpeg(64, 96)) });
      expect(imported.body, imported.text).toMatchObject({ foreignId, outcome: 'created' });
    }
    expect(await shownCover(auth, 'books', bookId)).not.toBe(bookCover);
    expect(await shownCover(auth, 'series', seriesId)).not.toBe(seriesCover);
    expect((await api(`/series/${seriesId}`, { auth })).body.hasCustomCover).toBe(true);
  });

  it('a cover row whose images are missing shows the cover before in its place, never kept under its version', async () => {
    const { auth } = await setupAdmin();
    const { bookId } = await scannedBook(auth);
    const generated = await shownCover(auth, 'books', bookId);
    // Storage refuses the images and the database then refuses to take the row back: the row outlives them, as
    // it does for the moment a reader may see between the row and the images of any new cover.
    const worker = faultyWorker({
      ...coverImagesRefused(),
      d1: ({ sql }) =>
        sql.some((s) => /^delete from "covers"/i.test(s)) ? new Error('D1_ERROR: internal error') : undefined,
    });
    const refused = await worker.fetch(coverPath('book', bookId, 'c1'), {
      auth: await worker.signIn(ADMIN),
      ...coverImport(jpeg(64, 96)),
    });
    expect(refused.status).toBe(503);
    await worker.settle();
    const [[coverId, selected]] = await coverList(auth, 'books', bookId);
    expect(selected).toBe(true);
    expectError(await api(`/books/${bookId}/covers/${coverId}/image`, { auth }), 404, 'NotFound');

    // The book names the new cover's version; asked for by it, the generated cover answers, revalidated each time.
    const version = (await api(`/books/${bookId}`, { auth })).body.coverVersion as string;
    const standIn = await api(`/books/${bookId}/thumbnail?v=${version}`, { auth });
    expect(standIn.status).toBe(200);
    expect(standIn.headers.get('ETag')).toBe(generated);
    expect(standIn.headers.get('Cache-Control')).toBe('private, no-cache');

    // Once the cover shows its own image (selected again after a good import), its version is immutable again.
    const good = await api(coverPath('book', bookId, 'c2'), { auth, ...coverImport(jpeg(64, 96)) });
    expect(good.body.outcome).toBe('created');
    const next = (await api(`/books/${bookId}`, { auth })).body.coverVersion as string;
    expect(next).not.toBe(version);
    const own = await api(`/books/${bookId}/thumbnail?v=${next}`, { auth });
    expect(own.headers.get('ETag')).not.toBe(generated);
    expect(own.headers.get('Cache-Control')).toContain('immutable');
  });
});

function formOf(bytes: Uint8Array): FormData {
  const data = new FormData();
  data.append('file', new Blob([bytes]), 'cover.bin');
  return data;
}
