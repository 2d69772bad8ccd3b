/**
 * The access rules one by one (issue 17, "Done when" 2; docs/DECISIONS.md §Organise and share,
 * "Enforcement"): library access, Komga's age restriction (ALLOW_ONLY / EXCLUDE) and sharing labels
 * (allowed / denied), each alone and combined, applied from the next request on; admins never restricted;
 * API keys narrowed to libraries, never widened; a deleted library leaving every grant; caches and
 * conditional requests no way around the rules. The catalog is test/support/access-fixture.ts.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiKeyLibraries, userLibraryAccess, userSharingLabels, users } from '../../src/db/schema';
import { buildAccessFixture } from '../support/access-fixture';
import { db } from '../support/catalog-factory';
import { createApiKey, createUser, login } from '../support/factories';
import { api, type Credentials, expectError } from '../support/http';
import { komga } from '../support/komga';
import { fetchAs } from '../support/opds';

interface Restriction {
  libraries?: string[] | null;
  age?: { age: number; mode: 'ALLOW_ONLY' | 'EXCLUDE' } | null;
  labels?: Array<{ labelId: string; mode: 'allow' | 'deny' }>;
}

/** Sets a user's access straight in D1 (the administration API is the access-api branch's). */
async function restrict(userId: string, { libraries = null, age = null, labels = [] }: Restriction) {
  const now = new Date().toISOString();
  await db.batch([
    db
      .update(users)
      .set({
        sharedAllLibraries: libraries === null,
        ageRestrictionAge: age?.age ?? null,
        ageRestrictionMode: age?.mode ?? null,
      })
      .where(eq(users.id, userId)),
    db.delete(userLibraryAccess).where(eq(userLibraryAccess.userId, userId)),
    ...(libraries?.length
      ? [db.insert(userLibraryAccess).values(libraries.map((libraryId) => ({ userId, libraryId })))]
      : []),
    db.delete(userSharingLabels).where(eq(userSharingLabels.userId, userId)),
    ...(labels.length
      ? [db.insert(userSharingLabels).values(labels.map((g) => ({ ...g, userId, createdAt: now })))]
      : []),
  ]);
}

const ALL = ['xadult', 'xbeta', 'xgamma', 'xsecret', 'xteen', 'xunrated'];

/** The markers of the series a caller sees, through /api/v1, /komga and OPDS search (which must agree). */
async function seen(auth: Credentials): Promise<string[]> {
  const series = await api('/series?pageSize=100', { auth });
  expect(series.status).toBe(200);
  const markers = (series.body.data as Array<{ title: string }>)
    .map((s) => s.title.replace('Zork ', '').toLowerCase())
    .sort();
  expect(series.body.total).toBe(markers.length);
  const komgaSeries = await komga('/api/v1/series?size=100', { auth });
  expect(
    (komgaSeries.body.content as Array<{ name: string }>).map((s) => s.name.replace('Zork ', '').toLowerCase()).sort(),
  ).toEqual(markers);
  expect(komgaSeries.body.totalElements).toBe(markers.length);
  const search = await fetchAs('/opds/v1.2/search/series?query=zork&pageSize=100', auth);
  expect(ALL.filter((m) => search.text.toLowerCase().includes(m))).toEqual(markers);
  return markers;
}

/**
 * The totals of the unfiltered book and series lists (a restricted viewer's is the admin's count less what
 * the viewer may not see: visibility.ts visibleCount) agree with the rows listed, over the whole catalog
 * and within each library; the books listed are those of the series seen.
 */
async function expectTotalsAgree(auth: Credentials, libraryIds: string[], markers: string[]) {
  const bookList = await api('/books?pageSize=100', { auth });
  expect(bookList.status).toBe(200);
  expect(bookList.body.total).toBe(bookList.body.data.length);
  const bookSeries = new Set(
    (bookList.body.data as Array<{ seriesName: string }>).map((b) => b.seriesName.replace('Zork ', '').toLowerCase()),
  );
  expect([...bookSeries].sort()).toEqual(markers);
  for (const libraryId of libraryIds) {
    for (const list of ['/series', '/books']) {
      const page = await api(`${list}?library_id=${libraryId}&pageSize=100`, { auth });
      if (page.status === 200) expect({ list, total: page.body.total }).toEqual({ list, total: page.body.data.length });
      else expect(page.status).toBe(404);
    }
  }
}

const keyOf = (key: string): Credentials => ({ apiKey: key });

describe('library access, age restriction and sharing labels (issue 17)', () => {
  it('each restriction alone and combined hides exactly what Komga’s rule hides, from the next request on', async () => {
    const f = await buildAccessFixture();
    const user = keyOf(f.userKey);
    const cases: Array<[string, Restriction, string[]]> = [
      ['no restriction', {}, ALL],
      ['libraries Alpha only', { libraries: [f.libraries.alpha] }, ['xadult', 'xsecret', 'xteen', 'xunrated']],
      [
        'EXCLUDE 18 (an unrated series passes)',
        { age: { age: 18, mode: 'EXCLUDE' } },
        ['xbeta', 'xgamma', 'xsecret', 'xteen', 'xunrated'],
      ],
      ['EXCLUDE 13 (rated 13 is hidden)', { age: { age: 13, mode: 'EXCLUDE' } }, ['xbeta', 'xgamma', 'xunrated']],
      [
        'ALLOW_ONLY 13 (an unrated series fails)',
        { age: { age: 13, mode: 'ALLOW_ONLY' } },
        ['xbeta', 'xgamma', 'xsecret', 'xteen'],
      ],
      ['allowed label Xpublic', { labels: [{ labelId: f.labels.xpublic, mode: 'allow' }] }, ['xteen']],
      [
        'denied label Xsecret',
        { labels: [{ labelId: f.labels.xsecret, mode: 'deny' }] },
        ['xadult', 'xbeta', 'xgamma', 'xteen', 'xunrated'],
      ],
      [
        'ALLOW_ONLY 0 or the allowed label Xpublic',
        { age: { age: 0, mode: 'ALLOW_ONLY' }, labels: [{ labelId: f.labels.xpublic, mode: 'allow' }] },
        ['xbeta', 'xgamma', 'xteen'],
      ],
      [
        'Alpha only, EXCLUDE 18 and the denied label Xsecret',
        {
          libraries: [f.libraries.alpha],
          age: { age: 18, mode: 'EXCLUDE' },
          labels: [{ labelId: f.labels.xsecret, mode: 'deny' }],
        },
        ['xteen', 'xunrated'],
      ],
    ];
    for (const [name, restriction, expected] of cases) {
      await restrict(f.user.id, restriction);
      expect({ name, seen: await seen(user) }).toEqual({ name, seen: expected });
      await expectTotalsAgree(user, Object.values(f.libraries), expected);
    }

    // The last case, counted: the library's counts and the libraries list leave the hidden series out.
    const alpha = await api(`/libraries/${f.libraries.alpha}`, { auth: user });
    expect(alpha.body).toMatchObject({ seriesCount: 2, bookCount: 3 });
    const adminAlpha = await api(`/libraries/${f.libraries.alpha}`, { auth: f.admin });
    expect(adminAlpha.body).toMatchObject({ seriesCount: 4, bookCount: 7 });
    const listed = await api('/libraries', { auth: user });
    expect(listed.body.map((l: { name: string }) => l.name)).toEqual(['Alpha Library']);
    expect((await api('/books?pageSize=100', { auth: user })).body.total).toBe(3);
  }, 120_000);

  it('an admin sees everything, whatever their own row says', async () => {
    const f = await buildAccessFixture();
    const me = await api('/auth/me', { auth: f.admin });
    await restrict(me.body.id, {
      libraries: [],
      age: { age: 0, mode: 'ALLOW_ONLY' },
      labels: [{ labelId: f.labels.xsecret, mode: 'deny' }],
    });
    expect(await seen(f.admin)).toEqual(ALL);
  }, 120_000);

  it('a reader holding the custom SystemAdmin permission sees every library and has no content restriction', async () => {
    const f = await buildAccessFixture();
    const reader = await createUser(f.admin, { customPermissions: ['SystemAdmin'] });
    await restrict(reader.id, {
      libraries: [f.libraries.alpha],
      age: { age: 0, mode: 'ALLOW_ONLY' },
      labels: [{ labelId: f.labels.xsecret, mode: 'deny' }],
    });
    const auth = (await login(reader.username, reader.password)).auth;
    expect((await api('/auth/me', { auth })).body.role).toBe('reader');
    expect(await seen(auth)).toEqual(ALL);
    // The same row without the permission: the restriction applies (the fixture is not simply open).
    const plain = await createUser(f.admin);
    await restrict(plain.id, {
      libraries: [f.libraries.alpha],
      age: { age: 0, mode: 'ALLOW_ONLY' },
      labels: [{ labelId: f.labels.xsecret, mode: 'deny' }],
    });
    expect(await seen((await login(plain.username, plain.password)).auth)).toEqual([]);
  }, 120_000);

  it('an API key narrows its owner’s libraries, is never widened, and loses a library its owner loses', async () => {
    const f = await buildAccessFixture();
    const narrow = keyOf(f.narrowKey);
    // The fixture's user: Alpha and Xgamma, EXCLUDE 18, Xsecret denied; the key: Alpha only.
    expect(await seen(keyOf(f.userKey))).toEqual(['xgamma', 'xteen', 'xunrated']);
    expect(await seen(narrow)).toEqual(['xteen', 'xunrated']);
    expectError(await api(`/libraries/${f.libraries.gamma}`, { auth: narrow }), 404, 'NotFound');

    // A key for a library the owner does not see, or an unknown one: 400 naming it, no key made.
    const session = (await login(f.user.username, f.user.password)).auth;
    const before = (await api('/api-keys', { auth: session })).body.length;
    for (const id of [f.libraries.beta, crypto.randomUUID()]) {
      const refused = expectError(
        await api('/api-keys', { auth: session, json: { name: 'more', library_ids: [id] } }),
        400,
        'BadRequest',
      );
      expect(JSON.stringify(refused)).toContain(id);
    }
    // A narrowed key creating a key: never more than its own libraries.
    const wider = await api('/api-keys', { auth: narrow, json: { name: 'wider', library_ids: [f.libraries.gamma] } });
    expectError(wider, 400, 'BadRequest');
    const passedOn = await createApiKey(narrow, { name: 'child' });
    expect(await seen(keyOf(passedOn.key))).toEqual(['xteen', 'xunrated']);
    // Libraries are fixed at creation: an update naming them is refused.
    const keys = (await api('/api-keys', { auth: session })).body as Array<{ id: string; name: string }>;
    const tablet = keys.find((k) => k.name === 'tablet')?.id;
    expectError(
      await api(`/api-keys/${tablet}`, { method: 'PUT', auth: session, json: { library_ids: [f.libraries.gamma] } }),
      400,
      'BadRequest',
    );
    expect((await api('/api-keys', { auth: session })).body.length).toBe(before + 1);

    // The owner loses Alpha: the key narrowed to it sees nothing (not everything), from the next request on.
    await restrict(f.user.id, { libraries: [f.libraries.gamma] });
    expect(await seen(narrow)).toEqual([]);
    expect((await api('/libraries', { auth: narrow })).body).toEqual([]);
    expect(await seen(keyOf(f.userKey))).toEqual(['xgamma']);
  }, 120_000);

  it('a deleted library leaves every grant, and the users and keys it was granted to do not widen', async () => {
    const f = await buildAccessFixture();
    const session = (await login(f.user.username, f.user.password)).auth;
    const gammaKey = await createApiKey(session, { name: 'gamma only', library_ids: [f.libraries.gamma] });
    expect(await seen(keyOf(gammaKey.key))).toEqual(['xgamma']);
    expect((await api(`/libraries/${f.libraries.gamma}`, { method: 'DELETE', auth: f.admin })).status).toBe(204);

    const grants = await db.select().from(userLibraryAccess).where(eq(userLibraryAccess.libraryId, f.libraries.gamma));
    const keyGrants = await db.select().from(apiKeyLibraries).where(eq(apiKeyLibraries.libraryId, f.libraries.gamma));
    expect({ grants, keyGrants }).toEqual({ grants: [], keyGrants: [] });
    expect(await seen(keyOf(f.userKey))).toEqual(['xteen', 'xunrated']);
    expect(await seen(keyOf(gammaKey.key))).toEqual([]);
  }, 120_000);

  it('pages and thumbnails an admin has just read (isolate and edge caches, ETags) stay hidden from a restricted reader', async () => {
    const f = await buildAccessFixture();
    const user = keyOf(f.userKey);
    const book = f.series.xadult.bookIds[0] as string;
    for (const path of [`/books/${book}/pages/1`, `/books/${book}/thumbnail`]) {
      const seenByAdmin = await api(path, { auth: f.admin });
      expect(seenByAdmin.status).toBe(200);
      const etag = seenByAdmin.headers.get('ETag');
      const unknownId = crypto.randomUUID();
      const unknown = await api(path.replace(book, unknownId), { auth: user });
      const conditional: Record<string, string> = etag ? { 'If-None-Match': etag } : {};
      for (const headers of [{}, conditional]) {
        const hidden = await api(path, { auth: user, headers });
        expect(hidden.status).toBe(404);
        expect(hidden.body.message).toBe(unknown.body.message.replace(unknownId, book));
        expect(hidden.headers.get('ETag')).toBeNull();
      }
    }
    // The page table the admin's read cached is not the reader's: their own book still reads.
    const visible = f.series.xteen.bookIds[0] as string;
    expect((await api(`/books/${visible}/pages/1`, { auth: user })).status).toBe(200);
  }, 120_000);
});
