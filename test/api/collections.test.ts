/** Collections and smart collections (docs/DECISIONS.md §Organise and share, §Collections and read lists). */
import { describe, expect, it } from 'vitest';
import { seedLibrary, seedSeries, seedSeriesWithBooks, softDeleteSeries } from '../support/catalog-factory';
import { createApiKey, createUser, login, setupAdmin } from '../support/factories';
import { api, type Credentials, expectError } from '../support/http';

async function readerAuth(admin: Credentials, role = 'reader') {
  const user = await createUser(admin, { role });
  return (await login(user.username, user.password)).auth;
}

const names = (body: { data: Array<{ title?: string; name?: string }> }) => body.data.map((x) => x.title ?? x.name);

describe('collections', () => {
  it('creates, lists, orders, edits and deletes a collection of series', async () => {
    const { auth } = await setupAdmin();
    const library = await seedLibrary();
    type Seeded = Awaited<ReturnType<typeof seedSeries>>;
    const [a, b, c] = (await Promise.all(
      ['Akira', 'Blame!', 'Claymore'].map((title) => seedSeries(library, { title })),
    )) as [Seeded, Seeded, Seeded];

    const created = await api('/collections', {
      auth,
      json: { name: 'Favourites', ordered: true, seriesIds: [c.id, a.id] },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Favourites',
      ordered: true,
      automatic: false,
      seriesCount: 2,
      filtered: false,
    });
    const id = created.body.id;

    const members = await api(`/collections/${id}/series`, { auth });
    expect(members.status).toBe(200);
    expect(names(members.body)).toEqual(['Claymore', 'Akira']);
    expect(members.body).toMatchObject({ page: 1, total: 2, totalPages: 1 });

    // Adding appends; a series already there keeps its place.
    const added = await api(`/collections/${id}/series`, { auth, json: { seriesIds: [b.id] } });
    expect(added.status).toBe(200);
    expect(added.body.seriesCount).toBe(3);
    expect(names((await api(`/collections/${id}/series`, { auth })).body)).toEqual(['Claymore', 'Akira', 'Blame!']);

    // Replace = reorder.
    expect(
      (await api(`/collections/${id}/series`, { auth, method: 'PUT', json: { seriesIds: [b.id, c.id, a.id] } })).status,
    ).toBe(204);
    expect(names((await api(`/collections/${id}/series`, { auth })).body)).toEqual(['Blame!', 'Claymore', 'Akira']);

    // Unordered collections list their series by name.
    const patched = await api(`/collections/${id}`, { auth, method: 'PATCH', json: { ordered: false, name: 'Faves' } });
    expect(patched.body).toMatchObject({ name: 'Faves', ordered: false });
    expect(names((await api(`/collections/${id}/series`, { auth })).body)).toEqual(['Akira', 'Blame!', 'Claymore']);

    // The collections of a series.
    const ofSeries = await api(`/series/${a.id}/collections`, { auth });
    expect(ofSeries.status).toBe(200);
    expect(names(ofSeries.body)).toEqual(['Faves']);

    expect((await api(`/collections/${id}/series/${a.id}`, { auth, method: 'DELETE' })).status).toBe(204);
    expect(names((await api(`/collections/${id}/series`, { auth })).body)).toEqual(['Blame!', 'Claymore']);
    expectError(await api(`/collections/${id}/series/${a.id}`, { auth, method: 'DELETE' }), 404, 'NotFound');

    const thumbnail = await api(`/collections/${id}/thumbnail`, { auth });
    expect(thumbnail.status).toBe(200);
    expect(thumbnail.headers.get('Content-Type')).toMatch(/^image\//);

    expect((await api(`/collections/${id}`, { auth, method: 'DELETE' })).status).toBe(204);
    expectError(await api(`/collections/${id}`, { auth }), 404, 'NotFound');
    // The series themselves stay.
    expect((await api(`/series/${a.id}`, { auth })).status).toBe(200);
  });

  it('refuses unknown and repeated ids, naming them, and changes nothing', async () => {
    const { auth } = await setupAdmin();
    const library = await seedLibrary();
    const s = await seedSeries(library, { title: 'Only' });
    const unknown = crypto.randomUUID();
    const refused = expectError(
      await api('/collections', { auth, json: { name: 'Bad', seriesIds: [s.id, unknown] } }),
      400,
      'BadRequest',
    );
    expect(refused.message).toContain(unknown);
    expect(refused.details?.[0]?.path).toBe('seriesIds');
    expect((await api('/collections', { auth })).body.total).toBe(0);

    const repeated = expectError(
      await api('/collections', { auth, json: { name: 'Twice', seriesIds: [s.id, s.id] } }),
      400,
      'BadRequest',
    );
    expect(repeated.message).toContain(s.id);

    const ok = await api('/collections', { auth, json: { name: 'Good', seriesIds: [s.id] } });
    expectError(
      await api(`/collections/${ok.body.id}/series`, { auth, method: 'PUT', json: { seriesIds: [unknown] } }),
      400,
      'BadRequest',
    );
    expect(ok.body.seriesCount).toBe(1);
    expect((await api(`/collections/${ok.body.id}`, { auth })).body.seriesCount).toBe(1);
    expectError(await api('/collections', { auth, json: { name: '  ' } }), 400, 'BadRequest');
    expectError(await api('/collections', { auth, json: { name: 'x', seriesIds: ['nope'] } }), 400, 'BadRequest');
    expectError(await api('/collections/not-a-uuid', { auth }), 400, 'BadRequest');
    expectError(await api(`/collections/${crypto.randomUUID()}`, { auth }), 404, 'NotFound');
    expectError(await api(`/series/${crypto.randomUUID()}/collections`, { auth }), 404, 'NotFound');
  });

  it('keeps names unique ignoring case (409)', async () => {
    const { auth } = await setupAdmin();
    expect((await api('/collections', { auth, json: { name: 'Marvel' } })).status).toBe(201);
    expectError(await api('/collections', { auth, json: { name: 'MARVEL' } }), 409, 'Conflict');
    const other = await api('/collections', { auth, json: { name: 'DC' } });
    expectError(
      await api(`/collections/${other.body.id}`, { auth, method: 'PATCH', json: { name: 'marvel' } }),
      409,
      'Conflict',
    );
  });

  it('lets readers read but not write; maintainers write', async () => {
    const { auth } = await setupAdmin();
    const reader = await readerAuth(auth);
    const maintainer = await readerAuth(auth, 'maintainer');
    const made = await api('/collections', { auth: maintainer, json: { name: 'By a maintainer' } });
    expect(made.status).toBe(201);
    expect((await api('/collections', { auth: reader })).body.total).toBe(1);
    expectError(await api('/collections', { auth: reader, json: { name: 'Nope' } }), 403, 'Forbidden');
    expectError(await api(`/collections/${made.body.id}`, { auth: reader, method: 'DELETE' }), 403, 'Forbidden');
    expectError(await api('/collections'), 401, 'Unauthorized');
  });

  it('are readable with the keys reader apps were given before lists existed (SeriesRead, BooksRead)', async () => {
    const { auth } = await setupAdmin();
    const key = await createApiKey(auth, { name: 'Phone', permissions: ['LibrariesRead', 'SeriesRead', 'BooksRead'] });
    const app = { apiKey: key.key };
    expect((await api('/collections', { auth: app })).status).toBe(200);
    expect((await api('/readlists', { auth: app })).status).toBe(200);
    expectError(await api('/collections', { auth: app, json: { name: 'x' } }), 403, 'Forbidden');
    const seriesOnly = await createApiKey(auth, { name: 'Narrow', permissions: ['SeriesRead'] });
    expectError(await api('/readlists', { auth: { apiKey: seriesOnly.key } }), 403, 'Forbidden');
  });

  it('leaves out series that are gone from lists and counts', async () => {
    const { auth } = await setupAdmin();
    const library = await seedLibrary();
    const kept = await seedSeries(library, { title: 'Kept' });
    const gone = await seedSeries(library, { title: 'Gone' });
    const mixed = await api('/collections', { auth, json: { name: 'Mixed', seriesIds: [gone.id, kept.id] } });
    const onlyGone = await api('/collections', { auth, json: { name: 'Only gone', seriesIds: [gone.id] } });
    await softDeleteSeries(gone.id);
    expect((await api(`/collections/${mixed.body.id}`, { auth })).body.seriesCount).toBe(1);
    expect(names((await api(`/collections/${mixed.body.id}/series`, { auth })).body)).toEqual(['Kept']);
    // A deleted series is gone, not hidden: its collection is shown empty (a hidden one would be a 404).
    expect((await api(`/collections/${onlyGone.body.id}`, { auth })).body.seriesCount).toBe(0);
    expect((await api(`/collections/${onlyGone.body.id}/series`, { auth })).body.total).toBe(0);
  });
});

describe('smart collections', () => {
  it('re-evaluates its condition on every read, and can be pinned to home', async () => {
    const { auth } = await setupAdmin();
    const library = await seedLibrary();
    await seedSeries(library, { title: 'Berserk', publisher: 'Dark Horse' });
    await seedSeries(library, { title: 'Saga', publisher: 'Image' });
    const smart = await api('/collections', {
      auth,
      json: {
        name: 'Dark Horse',
        condition: { publisher: { operator: 'is', value: 'Dark Horse' } },
        sort: 'name,asc',
        pinnedToHome: true,
      },
    });
    expect(smart.status).toBe(201);
    expect(smart.body).toMatchObject({ automatic: true, pinnedToHome: true, seriesCount: null, target: 'series' });
    expect(names((await api(`/collections/${smart.body.id}/series`, { auth })).body)).toEqual(['Berserk']);

    await seedSeries(library, { title: 'Hellboy', publisher: 'Dark Horse' });
    expect(names((await api(`/collections/${smart.body.id}/series`, { auth })).body)).toEqual(['Berserk', 'Hellboy']);

    const pinned = await api('/collections?pinned=true', { auth });
    expect(names(pinned.body)).toEqual(['Dark Horse']);

    // A smart collection's series come from its condition only.
    const s = await seedSeries(library, { title: 'Manual' });
    expectError(
      await api(`/collections/${smart.body.id}/series`, { auth, json: { seriesIds: [s.id] } }),
      409,
      'Conflict',
    );
  });

  it('lists books with a books target', async () => {
    const { auth } = await setupAdmin();
    const library = await seedLibrary();
    await seedSeriesWithBooks(library, 3, { title: 'Numbers' });
    const smart = await api('/collections', {
      auth,
      json: { name: 'First issues', target: 'books', condition: { title: { operator: 'is', value: 'Numbers 1' } } },
    });
    expect(smart.status).toBe(201);
    const books = await api(`/collections/${smart.body.id}/books`, { auth });
    expect(books.status).toBe(200);
    expect(books.body.data.map((b: { title: string }) => b.title)).toEqual(['Numbers 1']);
    expectError(await api(`/collections/${smart.body.id}/series`, { auth }), 409, 'Conflict');
  });

  it('refuses an invalid condition with the field path', async () => {
    const { auth } = await setupAdmin();
    const unknownField = expectError(
      await api('/collections', {
        auth,
        json: { name: 'Bad', condition: { colour: { operator: 'is', value: 'red' } } },
      }),
      400,
      'BadRequest',
    );
    expect(JSON.stringify(unknownField.details)).toContain('colour');
    const badOperator = expectError(
      await api('/collections', {
        auth,
        json: { name: 'Bad', condition: { allOf: [{ title: { operator: 'between', value: 'a' } }] } },
      }),
      400,
      'BadRequest',
    );
    expect(badOperator.details?.some((d) => d.path.includes('allOf'))).toBe(true);
    expectError(
      await api('/collections', {
        auth,
        json: { name: 'Bad sort', condition: { title: { operator: 'isNotNull' } }, sort: 'colour,asc' },
      }),
      400,
      'BadRequest',
    );
    expect((await api('/collections', { auth })).body.total).toBe(0);
  });
});
