/**
 * Issue 33, "Done when": a household moves from Komga and from Kavita to Longbox in one command. The real command
 * (tsx scripts/migrate.ts) runs against a real Longbox (`wrangler dev`: workerd, local D1 and R2,
 * test/support/dev-server.ts) into which the same books were uploaded under another folder layout; the peers'
 * databases are built from their own schemas (test/support/peers/). Then, through the API and the apps' routes:
 * every matched book's progress, every list in order, the kid's restrictions, an old password that signs in
 * and is re-hashed, an old Komga API key on /komga and refused on /api/v1; a second run changes nothing;
 * unmatched books are reported; and each bad input is a clear message that changes nothing.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LongboxServer, startServer } from '../support/dev-server';
import {
  buildKavitaHousehold,
  buildKomgaHousehold,
  type HouseholdBook,
  householdBooks,
  KAVITA_SERIES_COVER,
  MUM_KOMGA_KEY,
  PASSWORDS,
  SIS_PASSWORD,
} from '../support/peers/household';
import { createKomgaDatabase } from '../support/peers/komga-database';
import { createKavitaDatabase } from '../support/peers/kavita-database';

const ROOT = path.resolve(__dirname, '../..');
const TSX = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');
const work = mkdtempSync(path.join(tmpdir(), 'longbox-migrate-'));
const books = householdBooks();
let server: LongboxServer | undefined;
let baseUrl = '';
let adminKey = '';
/** Longbox's ids of the household's books, by key; library ids by prefix. */
const bookIds: Record<string, string> = {};
const libraryIds: Record<string, string> = {};

type Auth = { bearer?: string; apiKey?: string; basic?: [string, string] };

async function call(method: string, route: string, auth: Auth, json?: unknown) {
  const headers: Record<string, string> = {};
  if (auth.bearer) headers.Authorization = `Bearer ${auth.bearer}`;
  if (auth.apiKey) headers['X-API-Key'] = auth.apiKey;
  if (auth.basic) headers.Authorization = `Basic ${Buffer.from(auth.basic.join(':')).toString('base64')}`;
  if (json !== undefined) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${baseUrl}${route}`, {
    method,
    headers,
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}
const admin = (): Auth => ({ apiKey: adminKey });

function runMigrate(args: string[]) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [TSX, '--disable-warning=ExperimentalWarning', 'scripts/migrate.ts', ...args, '--url', baseUrl],
      { cwd: ROOT, env: { ...process.env, LONGBOX_API_KEY: adminKey } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The server's D1 database file, read-only (what the API does not show: stored hashes, the origins). */
function d1(): DatabaseSync {
  const folder = path.join(server?.stateDir ?? '', 'v3', 'd1', 'miniflare-D1DatabaseObject');
  const file = readdirSync(folder).find((name) => name.endsWith('.sqlite'));
  return new DatabaseSync(path.join(folder, file ?? 'missing'), { readOnly: true });
}

/** Everything a migration writes, as rows: a second run must leave it exactly as it was. */
function writtenState(): string {
  const db = d1();
  try {
    const tables = [
      'users',
      'user_library_access',
      'user_sharing_labels',
      'sharing_labels',
      'series_sharing_labels',
      'api_keys',
      'read_progress',
      'series_read_progress',
      'collections',
      'collection_series',
      'read_lists',
      'read_list_books',
      'want_to_read',
      'covers',
      'import_origins',
    ];
    // When a key or an account was last used is not what a migration writes (the command's own key is used).
    const used = new Set(['last_used_at', 'last_login_at']);
    return JSON.stringify(
      tables.map((table) => db.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all()),
      (key, value) => (used.has(key) ? undefined : typeof value === 'bigint' ? Number(value) : value),
    );
  } finally {
    db.close();
  }
}

async function upload(library: string, book: HouseholdBook) {
  const put = await fetch(`${baseUrl}/api/v1/libraries/${library}/files/${encodeURI(book.longboxPath)}`, {
    method: 'PUT',
    headers: { 'X-API-Key': adminKey, 'Content-Type': 'application/octet-stream' },
    body: book.bytes,
  });
  if (put.status !== 201) throw new Error(`upload ${book.longboxPath}: ${put.status} ${await put.text()}`);
}

async function scanned(library: string, started: { status: number }) {
  let status: { status: string } | undefined;
  let list: { data: Array<{ id: string; path: string; readerHash: string | null }> } | undefined;
  // Four minutes: a book whose work failed for a moment (the renderer or R2 busy on a loaded machine) is retried
  // after 10, 20, then 40 s (consumers/book-work.consumer.ts), and CI runs this beside the browser tests.
  for (const deadline = Date.now() + 240_000; Date.now() < deadline; ) {
    status = (await call('GET', `/api/v1/libraries/${library}/scan-status`, admin())).body;
    list = (await call('GET', `/api/v1/books?library_id=${library}&pageSize=100`, admin())).body;
    const done = status?.status !== 'running' && status?.status !== 'pending';
    // KOReader's hash comes from the book-work queue after the scan: matching needs it.
    if (done && list && list.data.length > 0 && list.data.every((b) => b.readerHash)) return list.data;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // What was still missing, every warning or error either worker logged and the queue's deliveries (the polls
  // fill the output's tail).
  const unhashed = list?.data.filter((b) => !b.readerHash) ?? [];
  const logged = (server?.output() ?? '')
    .split('\n')
    .filter((line) => /"level":"(warn|error)"|\[ERROR\]|QUEUE|batch done/.test(line));
  throw new Error(
    `library ${library} was not scanned and hashed in time: scan started ${started.status}, ` +
      `its status ${JSON.stringify(status)}, ` +
      `${list?.data.length ?? 0} books, without a hash: ${JSON.stringify(unhashed)}\n` +
      `warnings, errors and queue deliveries logged:\n${logged.join('\n').slice(-6000)}`,
  );
}

beforeAll(async () => {
  server = await startServer();
  baseUrl = server.url;
  const setup = await call(
    'POST',
    '/api/v1/setup/initialize',
    {},
    {
      username: 'admin',
      email: 'admin@example.com',
      password: 'admin-password-1',
    },
  );
  const key = await call('POST', '/api/v1/api-keys', { bearer: setup.body.access_token }, { name: 'migration' });
  adminKey = key.body.key;
  for (const [prefix, name] of [
    ['comics', 'Comics'],
    ['children', 'Children'],
  ] as const) {
    libraryIds[prefix] = (await call('POST', '/api/v1/libraries', admin(), { name, path: prefix })).body.id;
  }
  for (const book of Object.values(books)) await upload(libraryIds[book.longboxLibrary] as string, book);
  // Both scans at once: their books' work reaches the consumer together. (Under a loaded machine the local queue
  // was seen to deliver nothing after one batch: miniflare's broker flushes again only once the consumer's call,
  // its waitUntil work included, has returned.)
  const starts = {
    comics: await call('POST', `/api/v1/libraries/${libraryIds.comics}/scan`, admin()),
    children: await call('POST', `/api/v1/libraries/${libraryIds.children}/scan`, admin()),
  };
  for (const prefix of ['comics', 'children'] as const) {
    for (const row of await scanned(libraryIds[prefix] as string, starts[prefix])) {
      const key = Object.values(books).find((b) => `${prefix}/${b.longboxPath}` === row.path)?.key;
      if (key) bookIds[key] = row.id;
    }
  }
}, 600_000);

afterAll(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('npm run migrate -- komga', () => {
  const komgaFile = path.join(work, 'komga', 'database.sqlite');

  it('moves the household: books matched, users, progress, lists, restrictions, passwords and keys; a second run changes nothing', async () => {
    rmSync(path.dirname(komgaFile), { recursive: true, force: true });
    mkdirSync(path.dirname(komgaFile), { recursive: true });
    (await buildKomgaHousehold(komgaFile, books)).close();

    const first = await runMigrate(['komga', komgaFile, '--library-map', 'Kids=Children']);
    expect(first.stderr).toBe('');
    expect(first.code, first.stdout).toBe(0);
    expect(first.stdout).toContain(
      'Books: 8 of 9 matched (4 by path, 3 by KOReader hash, 1 by size and name); 1 unmatched',
    );
    expect(first.stdout).toContain(
      'unmatched: /data/comics/Saga/Gone.cbz: no book at Saga/Gone.cbz; no book with its KOReader hash; no book named Gone.cbz of 1234 bytes',
    );
    expect(first.stdout).toContain('"Kids" → "Children"');
    expect(first.stdout).toContain('Users: 3 created, 0 merged, 0 already there, 0 skipped');
    expect(first.stdout).toContain(
      'Progress: 5 written, 0 already as recent in Longbox, 1 skipped: 1 (its book was not matched)',
    );
    expect(first.stdout).toContain('Collections and read lists: 2 created');
    expect(first.stdout).toContain('created: Saga arc: 1 member(s) not matched in Longbox were left out');
    expect(first.stdout).toContain('API keys: 1 created');
    expect(first.stdout).toContain('Covers: 1 imported');
    expect(first.stdout).toContain(`point them at ${baseUrl}/komga`);
    const state = writtenState();

    const second = await runMigrate(['komga', komgaFile, '--library-map', 'Kids=Children']);
    expect(second.code, second.stdout).toBe(0);
    expect(second.stdout).toContain('Users: 0 created, 0 merged, 3 already there, 0 skipped');
    expect(second.stdout).toContain('Progress: 0 written, 5 already as recent in Longbox, 1 skipped');
    expect(second.stdout).toContain('Collections and read lists: 0 created, 0 merged, 2 already there');
    expect(second.stdout).toContain('Covers: 0 imported, 1 already there');
    expect(writtenState()).toBe(state);

    // Mum signs in with her Komga password, which is then replaced by Longbox's own hash.
    const stored = () => {
      const db = d1();
      try {
        return String(
          (db.prepare(`SELECT password_hash AS h FROM users WHERE username = 'mum'`).get() as { h: string }).h,
        );
      } finally {
        db.close();
      }
    };
    expect(stored()).toMatch(/^\$2a\$10\$/);
    const mum: Auth = { basic: ['mum', PASSWORDS.mum] };
    const login = await call('POST', '/api/v1/auth/login', {}, { username: 'mum', password: PASSWORDS.mum });
    expect(login.status).toBe(200);
    expect(stored()).toMatch(/^\$argon2id\$v=19\$/);
    expect((await call('GET', '/api/v1/auth/me', mum)).status).toBe(200);

    // Every matched book's progress, as Komga had it.
    const progress = async (key: string, who: Auth) =>
      (await call('GET', `/api/v1/books/${bookIds[key]}/progress`, who)).body;
    expect(await progress('saga1', mum)).toMatchObject({
      currentPage: 4,
      completed: true,
      completedAt: '2024-05-02T21:00:00.250Z',
    });
    expect(await progress('saga2', mum)).toMatchObject({ currentPage: 3, completed: false, progressPercentage: 0.75 });
    expect(await progress('novel', mum)).toMatchObject({ currentPage: 6, completed: false, progressPercentage: 0.6 });
    const progression = await call('GET', `/komga/api/v1/books/${bookIds.novel}/progression`, mum);
    expect(progression.body.locator).toMatchObject({
      href: 'OEBPS/text/page2.xhtml',
      locations: { progression: 0.4, position: 6, totalProgression: 0.6 },
    });
    expect(progression.body.device).toMatchObject({ id: 'komelia-tablet', name: 'Komelia' });
    const dad: Auth = { basic: ['dad', PASSWORDS.dad] };
    expect(await progress('bluey1', dad)).toMatchObject({ currentPage: 2, completed: false });
    const kid: Auth = { basic: ['kid', PASSWORDS.kid] };
    expect(await progress('bluey2', kid)).toMatchObject({ currentPage: 4, completed: true });

    // Lists in the peer's order (the book Longbox lacks left out).
    const readLists = (await call('GET', '/api/v1/readlists', admin())).body.data;
    const arc = readLists.find((l: { name: string }) => l.name === 'Saga arc');
    const arcBooks = (await call('GET', `/api/v1/readlists/${arc.id}/books`, admin())).body.data;
    expect(arcBooks.map((b: { id: string }) => b.id)).toEqual([bookIds.saga3, bookIds.saga1, bookIds.saga2]);
    const favourites = (await call('GET', '/api/v1/collections', admin())).body.data[0];
    expect(favourites).toMatchObject({ name: 'Favourites', ordered: true });
    const members = (await call('GET', `/api/v1/collections/${favourites.id}/series`, admin())).body.data;
    expect(members.map((s: { title: string }) => s.title)).toEqual(['Bluey', 'Saga (Image Comics)']);

    // The kid sees what Komga let them see: the Kids library, rated at most 10, nothing labelled "scary".
    const kidSeries = (await call('GET', '/api/v1/series', kid)).body.data.map((s: { title: string }) => s.title);
    expect(kidSeries).toEqual(['Bluey']);
    const kidKomga = (await call('GET', '/komga/api/v1/series', kid)).body.content.map((s: { name: string }) => s.name);
    expect(kidKomga).toEqual(['Bluey']);
    expect((await call('GET', '/api/v1/series', admin())).body.total).toBe(5);

    // Mum's Komga key reads /komga as Mihon would, and is refused on /api/v1 with API.md's format error.
    const viaKey = await call('GET', '/komga/api/v1/series', { apiKey: MUM_KOMGA_KEY });
    expect(viaKey.status).toBe(200);
    expect(viaKey.body.content.map((s: { name: string }) => s.name).sort()).toEqual([
      'Bluey',
      'Novels',
      'Saga (Image Comics)',
      'Scary',
      'Titans',
    ]);
    const refused = await call('GET', '/api/v1/series', { apiKey: MUM_KOMGA_KEY });
    expect(refused).toMatchObject({ status: 401, body: { error: 'Unauthorized', message: 'Invalid API key format' } });

    // Hand-edited title locked; the uploaded cover selected.
    const saga = (await call('GET', '/api/v1/series', admin())).body.data.find((s: { title: string }) =>
      s.title.startsWith('Saga'),
    );
    expect((await call('GET', `/api/v1/series/${saga.id}/metadata`, admin())).body.locks.title).toBe(true);
    const bluey = (await call('GET', '/api/v1/series', admin())).body.data.find(
      (s: { title: string }) => s.title === 'Bluey',
    );
    expect((await call('GET', `/api/v1/series/${bluey.id}/covers`, admin())).body.covers).toHaveLength(1);
  }, 240_000);

  it('a key that collides with one in Longbox is reported and skipped; an existing user is merged only when asked', async () => {
    // Another Komga (another source) where mum's account and her key were copied.
    const other = path.join(work, 'other-komga.sqlite');
    rmSync(other, { force: true });
    (await buildKomgaHousehold(other, books, { installedOn: '2025-01-01 00:00:00.000', users: ['mum'] })).close();
    const skipped = await runMigrate(['komga', other, '--library-map', 'Kids=Children']);
    expect(skipped.code, skipped.stdout).toBe(0);
    expect(skipped.stdout).toContain(
      'skipped: mum <mum@home.test>: a Longbox account has the e-mail address mum@home.test: skipped (run with --merge-users to import into it)',
    );
    expect(skipped.stdout).toContain('API keys: 0 created, 0 merged, 0 already there, 1 skipped');
    expect(skipped.stdout).toContain('skipped: Mihon on the phone: its owner was not imported');

    const merged = await runMigrate(['komga', other, '--library-map', 'Kids=Children', '--merge-users']);
    expect(merged.code, merged.stdout).toBe(0);
    expect(merged.stdout).toContain(
      'merged: mum <mum@home.test>: a Longbox account has the e-mail address mum@home.test: imported into it',
    );
    expect(merged.stdout).toContain(
      'skipped: Mihon on the phone: collides with an API key already in Longbox: not imported',
    );
    // The key still belongs to the mum of the first Komga, once.
    const keys = (await call('GET', '/api/v1/api-keys', { basic: ['mum', PASSWORDS.mum] })).body;
    expect(keys).toHaveLength(1);
  }, 120_000);
});

describe('npm run migrate -- kavita', () => {
  it('moves a Kavita backup: chapter progress onto files, a private read list, want-to-read, OPDS keys reported', async () => {
    const database = path.join(work, 'kavita.db');
    rmSync(database, { force: true });
    buildKavitaHousehold(database, books).close();
    const backup = path.join(work, 'kavita_backup_2024-06-10_v0.8.4.0.zip');
    writeFileSync(
      backup,
      zipSync({
        'appsettings.json': new TextEncoder().encode('{}'),
        'kavita.db': new Uint8Array(readFileSync(database)),
        'covers/series1.png': KAVITA_SERIES_COVER,
      }),
    );
    // A dry run matches and reports, and writes nothing.
    const untouched = writtenState();
    const dry = await runMigrate(['kavita', backup, '--library-map', 'Manga=Comics', '--dry-run']);
    expect(dry.code, dry.stdout + dry.stderr).toBe(0);
    expect(dry.stdout).toContain(
      'Dry run: nothing was sent beyond the book matching. 2 user(s), 3 progress row(s), 2 list(s) would be imported.',
    );
    expect(dry.stdout).toContain('Books: 4 of 4 matched');
    expect(writtenState()).toBe(untouched);

    const first = await runMigrate(['kavita', backup, '--library-map', 'Manga=Comics']);
    expect(first.stderr).toBe('');
    expect(first.code, first.stdout).toBe(0);
    expect(first.stdout).toContain(
      'Books: 4 of 4 matched (1 by path, 3 by KOReader hash, 0 by size and name); 0 unmatched',
    );
    expect(first.stdout).toContain('skipped: admin <kavita-admin@home.test>: a Longbox account has the name admin');
    expect(first.stdout).toContain(
      `Kavita OPDS keys (their URLs, /api/opds/<key>, are not served by Longbox): sis. Each makes an API key on Longbox's Account screen and points the OPDS app at ${baseUrl}/opds/v1.2/catalog`,
    );
    expect(first.stdout).toMatch(/Progress: 3 written/);

    const sis: Auth = { basic: ['sis', SIS_PASSWORD] };
    const progress = async (key: string) => (await call('GET', `/api/v1/books/${bookIds[key]}/progress`, sis)).body;
    expect(await progress('saga1')).toMatchObject({ currentPage: 3, completed: false });
    expect(await progress('saga2')).toMatchObject({ currentPage: 4, completed: true });
    // The EPUB at the start of its third chapter: positions 1-3 and 4-8 are the first two.
    const novel = await progress('novel');
    expect(novel.currentPage).toBe(9);
    expect(novel.progressPercentage).toBeCloseTo(0.9, 5);
    const progression = await call('GET', `/komga/api/v1/books/${bookIds.novel}/progression`, sis);
    expect(progression.body.locator).toMatchObject({ href: 'OEBPS/text/page3.xhtml', locations: { position: 9 } });

    // Sis's reading list is hers alone; the promoted collection is everyone's.
    const own = (await call('GET', '/api/v1/readlists', sis)).body.data.find(
      (l: { name: string }) => l.name === 'Sis order',
    );
    const order = (await call('GET', `/api/v1/readlists/${own.id}/books`, sis)).body.data.map(
      (b: { id: string }) => b.id,
    );
    expect(order).toEqual([bookIds.saga3, bookIds.saga1, bookIds.saga2]);
    expect((await call('GET', `/api/v1/readlists/${own.id}`, admin())).status).toBe(404);
    const collections = (await call('GET', '/api/v1/collections', admin())).body.data.map(
      (c: { name: string }) => c.name,
    );
    expect(collections).toContain('Best of');
    const queue = (await call('GET', '/api/v1/want-to-read', sis)).body.data;
    expect(queue.map((e: { series?: { title: string } }) => e.series?.title)).toEqual(['Novels']);
    // The locked cover came from the backup's covers folder.
    const saga = (await call('GET', '/api/v1/series', admin())).body.data.find((s: { title: string }) =>
      s.title.startsWith('Saga'),
    );
    expect((await call('GET', `/api/v1/series/${saga.id}/covers`, admin())).body.covers).toHaveLength(1);

    const merged = await runMigrate(['kavita', backup, '--library-map', 'Manga=Comics', '--merge-users']);
    expect(merged.code).toBe(0);
    expect(merged.stdout).toContain('Users: 0 created, 1 merged, 1 already there, 0 skipped');
  }, 180_000);
});

describe('npm run migrate: bad input is a clear message and changes nothing', () => {
  async function refused(args: string[], message: string | RegExp) {
    const before = writtenState();
    const res = await runMigrate(args);
    expect(res.code, res.stdout + res.stderr).toBe(1);
    if (typeof message === 'string') expect(res.stderr).toContain(message);
    else expect(res.stderr).toMatch(message);
    expect(writtenState()).toBe(before);
  }

  it('a file that is not SQLite', async () => {
    const file = path.join(work, 'notes.txt');
    writeFileSync(file, 'these are not the books you are looking for'.repeat(100));
    await refused(['komga', file], `migrate: ${file} is not an SQLite database (is it Komga's database file?)`);
    await refused(['kavita', file], `migrate: ${file} is not an SQLite database (is it Kavita's database file?)`);
  }, 60_000);

  it('a schema version the importer does not know names the version seen and those it knows', async () => {
    const old = path.join(work, 'old-komga.sqlite');
    rmSync(old, { force: true });
    createKomgaDatabase(old, { upTo: '20240529120934' }).close();
    await refused(
      ['komga', old],
      /Komga schema version 20240529120934 is not one this importer knows \(it knows 20250108172343 \(Komga 1\.17\.0\), .*20260225161438 \(Komga 1\.26\.0\)\)\. Update Komga/,
    );
    const future = path.join(work, 'future-kavita.db');
    rmSync(future, { force: true });
    createKavitaDatabase(future, { version: '20260101000000_SomethingNew' }).close();
    await refused(
      ['kavita', future],
      'Kavita schema version 20260101000000_SomethingNew is not one this importer knows (it knows 20240331172900_UserBasedCollections (Kavita 0.8.0) to 20241011172428_PeopleOverhaulPart3 (Kavita 0.8.4)). This Kavita is newer than the importer',
    );
  }, 60_000);

  it('a database another process holds locked', async () => {
    const locked = path.join(work, 'locked-komga.sqlite');
    rmSync(locked, { force: true });
    (await buildKomgaHousehold(locked, books)).close();
    const writer = new DatabaseSync(locked);
    writer.exec(`BEGIN EXCLUSIVE; UPDATE LIBRARY SET NAME = NAME;`);
    try {
      await refused(
        ['komga', locked],
        `migrate: ${locked} is locked by another process (is Komga still running?): stop Komga, or copy the file while it is stopped, and run again`,
      );
    } finally {
      writer.exec('ROLLBACK');
      writer.close();
    }
  }, 60_000);

  it('a zip without kavita.db', async () => {
    const zip = path.join(work, 'kavita_backup_empty.zip');
    writeFileSync(zip, zipSync({ 'appsettings.json': new TextEncoder().encode('{}') }));
    await refused(['kavita', zip], `migrate: ${zip} holds no kavita.db: give Kavita's backup`);
  }, 60_000);

  it('a library map naming a library that does not exist, and bad usage', async () => {
    const komgaFile = path.join(work, 'komga', 'database.sqlite');
    await refused(
      ['komga', komgaFile, '--library-map', 'Kids=Nursery'],
      '--library-map names "Nursery", which Longbox has no library of (it has "Children", "Comics")',
    );
    for (const args of [['plex', komgaFile], ['komga'], ['komga', komgaFile, '--library-map', 'Kids']]) {
      const res = await runMigrate(args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr).toContain('Usage: npm run migrate');
    }
  }, 60_000);
});
