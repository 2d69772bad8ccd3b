/**
 * Administration of what a user may see (issue 17, /api/v1): library access, age restriction and sharing tags
 * set by an admin take effect on the user's next request; bad ids are 400s naming them with nothing changed;
 * an account with limited access cannot hand out more than it has (docs/DECISIONS.md §Organise and share).
 */
import { describe, expect, it } from 'vitest';
import { seedLibrary, seedSeries } from '../support/catalog-factory';
import { createUser, login, setupAdmin } from '../support/factories';
import { api, type Credentials, expectError } from '../support/http';
import { komga } from '../support/komga';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

async function catalog() {
  const admin = await setupAdmin();
  const a = await seedLibrary({ name: 'Family' });
  const b = await seedLibrary({ name: 'Grown-ups' });
  const kidsSeries = await seedSeries(a, { title: 'Kid Detectives', ageRating: 6 });
  const teenSeries = await seedSeries(a, { title: 'Teen Titans Go', ageRating: 13 });
  const adultSeries = await seedSeries(a, { title: 'Late Night Noir', ageRating: 18 });
  const unrated = await seedSeries(a, { title: 'Unrated Sketches' });
  const other = await seedSeries(b, { title: 'Office Drama', ageRating: 16 });
  const reader = await createUser(admin.auth);
  const session = await login(reader.username, reader.password);
  return { admin, a, b, kidsSeries, teenSeries, adultSeries, unrated, other, reader, session };
}

async function seriesTitles(auth: Credentials): Promise<string[]> {
  const res = await api('/series?pageSize=100', { auth });
  expect(res.status).toBe(200);
  return (res.body.data as Array<{ title: string }>).map((s) => s.title).sort();
}

async function createTag(auth: Credentials, name: string, description?: string) {
  const res = await api('/admin/sharing-tags', { auth, json: { name, ...(description ? { description } : {}) } });
  expect(res.status).toBe(201);
  return res.body as { id: string; name: string };
}

describe('library access on PUT /users/{id}', () => {
  it('shares only the chosen libraries from the next request, and shows the grant on the user', async () => {
    const { admin, a, reader, session } = await catalog();
    expect(await seriesTitles(session.auth)).toHaveLength(5);
    expect(reader.user).toMatchObject({
      sharedAllLibraries: true,
      sharedLibraryIds: [],
      ageRestriction: null,
      sharingTags: [],
    });

    const put = await api(`/users/${reader.id}`, {
      auth: admin.auth,
      method: 'PUT',
      json: { sharedLibraryIds: [a.id] },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ sharedAllLibraries: false, sharedLibraryIds: [a.id] });
    expect(await seriesTitles(session.auth)).toEqual([
      'Kid Detectives',
      'Late Night Noir',
      'Teen Titans Go',
      'Unrated Sketches',
    ]);
    const libraries = await api('/libraries', { auth: session.auth });
    expect((libraries.body as Array<{ name: string }>).map((l) => l.name)).toEqual(['Family']);
    // The reader's own view of themselves says the same.
    expect((await api('/auth/me', { auth: session.auth })).body).toMatchObject({
      sharedAllLibraries: false,
      sharedLibraryIds: [a.id],
    });

    const back = await api(`/users/${reader.id}`, {
      auth: admin.auth,
      method: 'PUT',
      json: { sharedAllLibraries: true },
    });
    expect(back.body).toMatchObject({ sharedAllLibraries: true, sharedLibraryIds: [] });
    expect(await seriesTitles(session.auth)).toHaveLength(5);
  });

  it('answers 400 naming unknown library ids and changes nothing, not even the other fields', async () => {
    const { admin, a, reader } = await catalog();
    const bad = expectError(
      await api(`/users/${reader.id}`, {
        auth: admin.auth,
        method: 'PUT',
        json: { email: 'changed@example.com', sharedLibraryIds: [a.id, UNKNOWN_ID] },
      }),
      400,
      'BadRequest',
    );
    expect(bad.message).toContain(UNKNOWN_ID);
    expect(bad.details).toEqual([{ path: 'sharedLibraryIds.1', message: expect.stringContaining(UNKNOWN_ID) }]);
    const after = await api(`/users/${reader.id}`, { auth: admin.auth });
    expect(after.body).toMatchObject({ email: reader.user.email, sharedAllLibraries: true, sharedLibraryIds: [] });
  });

  it('creates a user with limited access in one request', async () => {
    const { admin, a } = await catalog();
    const created = await api('/users', {
      auth: admin.auth,
      json: {
        username: 'kiddo',
        email: 'kiddo@example.com',
        password: 'kiddo-password-1',
        sharedLibraryIds: [a.id],
        ageRestriction: { age: 12, restriction: 'ALLOW_ONLY' },
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      sharedAllLibraries: false,
      sharedLibraryIds: [a.id],
      ageRestriction: { age: 12, restriction: 'ALLOW_ONLY' },
    });
    const kid = await login('kiddo', 'kiddo-password-1');
    expect(await seriesTitles(kid.auth)).toEqual(['Kid Detectives']);
  });

  it('drops a deleted library from every grant', async () => {
    const { admin, a, b, reader } = await catalog();
    await api(`/users/${reader.id}`, { auth: admin.auth, method: 'PUT', json: { sharedLibraryIds: [a.id, b.id] } });
    expect((await api(`/libraries/${b.id}`, { auth: admin.auth, method: 'DELETE' })).status).toBe(204);
    expect((await api(`/users/${reader.id}`, { auth: admin.auth })).body.sharedLibraryIds).toEqual([a.id]);
  });
});

describe('age restriction on PUT /users/{id}', () => {
  it('ALLOW_ONLY shows rated series up to the age (unrated hidden); EXCLUDE hides from the age up; null removes it', async () => {
    const { admin, reader, session, adultSeries } = await catalog();
    const allowOnly = await api(`/users/${reader.id}`, {
      auth: admin.auth,
      method: 'PUT',
      json: { ageRestriction: { age: 13, restriction: 'ALLOW_ONLY' } },
    });
    expect(allowOnly.body.ageRestriction).toEqual({ age: 13, restriction: 'ALLOW_ONLY' });
    expect(await seriesTitles(session.auth)).toEqual(['Kid Detectives', 'Teen Titans Go']);
    expectError(await api(`/series/${adultSeries.id}`, { auth: session.auth }), 404, 'NotFound');

    await api(`/users/${reader.id}`, {
      auth: admin.auth,
      method: 'PUT',
      json: { ageRestriction: { age: 16, restriction: 'EXCLUDE' } },
    });
    expect(await seriesTitles(session.auth)).toEqual(['Kid Detectives', 'Teen Titans Go', 'Unrated Sketches']);

    const removed = await api(`/users/${reader.id}`, {
      auth: admin.auth,
      method: 'PUT',
      json: { ageRestriction: null },
    });
    expect(removed.body.ageRestriction).toBeNull();
    expect(await seriesTitles(session.auth)).toHaveLength(5);
  });

  it('rejects a negative or fractional age and an unknown restriction with 400s naming the field', async () => {
    const { admin, reader } = await catalog();
    for (const ageRestriction of [
      { age: -1, restriction: 'EXCLUDE' },
      { age: 1.5, restriction: 'EXCLUDE' },
    ]) {
      const bad = expectError(
        await api(`/users/${reader.id}`, { auth: admin.auth, method: 'PUT', json: { ageRestriction } }),
        400,
        'BadRequest',
      );
      expect(bad.details?.map((d) => d.path)).toEqual(['ageRestriction.age']);
    }
    const mode = expectError(
      await api(`/users/${reader.id}`, {
        auth: admin.auth,
        method: 'PUT',
        json: { ageRestriction: { age: 3, restriction: 'NONE' } },
      }),
      400,
      'BadRequest',
    );
    expect(mode.details?.map((d) => d.path)).toEqual(['ageRestriction.restriction']);
  });
});

describe('sharing tags (/admin/sharing-tags, /series/{id}/sharing-tags, /users/{id}/sharing-tags, /user/sharing-tags)', () => {
  it('creates, lists with counts, renames and deletes tags; names are unique ignoring case', async () => {
    const { admin, adultSeries, reader } = await catalog();
    const mature = await createTag(admin.auth, 'Mature', 'Not for the kids');
    expect(mature).toMatchObject({ name: 'Mature', description: 'Not for the kids', seriesCount: 0, userCount: 0 });
    expectError(await api('/admin/sharing-tags', { auth: admin.auth, json: { name: 'mature' } }), 409, 'Conflict');
    expectError(await api('/admin/sharing-tags', { auth: admin.auth, json: { name: '  ' } }), 400, 'BadRequest');

    await api(`/series/${adultSeries.id}/sharing-tags`, { auth: admin.auth, json: { sharingTagId: mature.id } });
    await api(`/users/${reader.id}/sharing-tags`, {
      auth: admin.auth,
      method: 'PUT',
      json: { sharingTagId: mature.id, accessMode: 'deny' },
    });
    const listed = await api('/admin/sharing-tags', { auth: admin.auth });
    expect(listed.body).toMatchObject({ total: 1, data: [{ id: mature.id, seriesCount: 1, userCount: 1 }] });

    const other = await createTag(admin.auth, 'Kids');
    expectError(
      await api(`/admin/sharing-tags/${other.id}`, { auth: admin.auth, method: 'PUT', json: { name: 'MATURE' } }),
      409,
      'Conflict',
    );
    const renamed = await api(`/admin/sharing-tags/${mature.id}`, {
      auth: admin.auth,
      method: 'PUT',
      json: { name: 'Adults', description: null },
    });
    expect(renamed.body).toMatchObject({ name: 'Adults', description: null });

    expect((await api(`/admin/sharing-tags/${mature.id}`, { auth: admin.auth, method: 'DELETE' })).status).toBe(204);
    expectError(await api(`/admin/sharing-tags/${mature.id}`, { auth: admin.auth }), 404, 'NotFound');
    expect((await api(`/series/${adultSeries.id}/sharing-tags`, { auth: admin.auth })).body).toEqual([]);
    expect((await api(`/users/${reader.id}/sharing-tags`, { auth: admin.auth })).body.grants).toEqual([]);
  });

  it('a denied tag hides the series carrying it; an allowed tag shows only those; revoking restores', async () => {
    const { admin, reader, session, kidsSeries, adultSeries } = await catalog();
    const mature = await createTag(admin.auth, 'Mature');
    const kids = await createTag(admin.auth, 'Kids');
    const set = await api(`/series/${adultSeries.id}/sharing-tags`, {
      auth: admin.auth,
      method: 'PUT',
      json: { sharingTagIds: [mature.id] },
    });
    expect(set.body).toEqual([{ id: mature.id, name: 'Mature', description: null }]);
    await api(`/series/${kidsSeries.id}/sharing-tags`, { auth: admin.auth, json: { sharingTagId: kids.id } });

    const grant = await api(`/users/${reader.id}/sharing-tags`, {
      auth: admin.auth,
      method: 'PUT',
      json: { sharingTagId: mature.id, accessMode: 'deny' },
    });
    expect(grant.status).toBe(200);
    expect(grant.body).toMatchObject({ sharingTagId: mature.id, sharingTagName: 'Mature', accessMode: 'deny' });
    expect(await seriesTitles(session.auth)).not.toContain('Late Night Noir');
    expectError(await api(`/series/${adultSeries.id}/sharing-tags`, { auth: session.auth }), 404, 'NotFound');
    const mine = await api('/user/sharing-tags', { auth: session.auth });
    expect(mine.body).toEqual({
      userId: reader.id,
      grants: [expect.objectContaining({ sharingTagId: mature.id, accessMode: 'deny' })],
    });

    await api(`/users/${reader.id}/sharing-tags`, {
      auth: admin.auth,
      method: 'PUT',
      json: { sharingTagId: kids.id, accessMode: 'allow' },
    });
    expect(await seriesTitles(session.auth)).toEqual(['Kid Detectives']);
    expect((await api(`/users/${reader.id}`, { auth: admin.auth })).body.sharingTags).toEqual([
      { sharingTagId: kids.id, name: 'Kids', accessMode: 'allow' },
      { sharingTagId: mature.id, name: 'Mature', accessMode: 'deny' },
    ]);

    expect(
      (await api(`/users/${reader.id}/sharing-tags/${kids.id}`, { auth: admin.auth, method: 'DELETE' })).status,
    ).toBe(204);
    expectError(
      await api(`/users/${reader.id}/sharing-tags/${kids.id}`, { auth: admin.auth, method: 'DELETE' }),
      404,
      'NotFound',
    );
    expect(await seriesTitles(session.auth)).toHaveLength(4);
    // Replacing every grant at once through PUT /users/{id}.
    await api(`/users/${reader.id}`, { auth: admin.auth, method: 'PUT', json: { sharingTags: [] } });
    expect(await seriesTitles(session.auth)).toHaveLength(5);
  });

  it('answers 400 naming unknown tag ids, 404 for a missing series or user, and changes nothing', async () => {
    const { admin, reader, adultSeries } = await catalog();
    const mature = await createTag(admin.auth, 'Mature');
    await api(`/series/${adultSeries.id}/sharing-tags`, { auth: admin.auth, json: { sharingTagId: mature.id } });
    const bad = expectError(
      await api(`/series/${adultSeries.id}/sharing-tags`, {
        auth: admin.auth,
        method: 'PUT',
        json: { sharingTagIds: [UNKNOWN_ID] },
      }),
      400,
      'BadRequest',
    );
    expect(bad.message).toContain(UNKNOWN_ID);
    expect(bad.details).toEqual([{ path: 'sharingTagIds.0', message: expect.any(String) }]);
    expect((await api(`/series/${adultSeries.id}/sharing-tags`, { auth: admin.auth })).body).toHaveLength(1);
    const grant = expectError(
      await api(`/users/${reader.id}/sharing-tags`, {
        auth: admin.auth,
        method: 'PUT',
        json: { sharingTagId: UNKNOWN_ID, accessMode: 'deny' },
      }),
      400,
      'BadRequest',
    );
    expect(grant.details).toEqual([{ path: 'sharingTagId', message: expect.any(String) }]);
    const onUser = expectError(
      await api(`/users/${reader.id}`, {
        auth: admin.auth,
        method: 'PUT',
        json: {
          sharingTags: [
            { sharingTagId: mature.id, accessMode: 'deny' },
            { sharingTagId: UNKNOWN_ID, accessMode: 'allow' },
          ],
        },
      }),
      400,
      'BadRequest',
    );
    expect(onUser.details).toEqual([{ path: 'sharingTags.1.sharingTagId', message: expect.any(String) }]);
    expect((await api(`/users/${reader.id}`, { auth: admin.auth })).body.sharingTags).toEqual([]);
    expectError(await api(`/series/${UNKNOWN_ID}/sharing-tags`, { auth: admin.auth }), 404, 'NotFound');
    expectError(await api(`/users/${UNKNOWN_ID}/sharing-tags`, { auth: admin.auth }), 404, 'NotFound');
    expectError(
      await api(`/users/${reader.id}/sharing-tags`, {
        auth: admin.auth,
        method: 'PUT',
        json: { sharingTagId: mature.id, accessMode: 'maybe' },
      }),
      400,
      'BadRequest',
    );
  });

  it('a reader cannot manage tags or grants', async () => {
    const { admin, session, adultSeries, reader } = await catalog();
    const mature = await createTag(admin.auth, 'Mature');
    expectError(await api('/admin/sharing-tags', { auth: session.auth }), 403, 'Forbidden');
    expectError(await api('/admin/sharing-tags', { auth: session.auth, json: { name: 'Mine' } }), 403, 'Forbidden');
    expectError(
      await api(`/series/${adultSeries.id}/sharing-tags`, { auth: session.auth, json: { sharingTagId: mature.id } }),
      403,
      'Forbidden',
    );
    expectError(
      await api(`/users/${reader.id}/sharing-tags/${mature.id}`, { auth: session.auth, method: 'DELETE' }),
      403,
      'Forbidden',
    );
    // Reading a visible series' tags is for anyone who reads series.
    expect((await api(`/series/${adultSeries.id}/sharing-tags`, { auth: session.auth })).status).toBe(200);
  });
});

describe('nobody grants more than they have', () => {
  async function limitedManager() {
    const world = await catalog();
    const manager = await createUser(world.admin.auth, {
      role: 'maintainer',
      customPermissions: ['UsersRead', 'UsersWrite'],
    });
    const mature = await createTag(world.admin.auth, 'Mature');
    await api(`/series/${world.adultSeries.id}/sharing-tags`, {
      auth: world.admin.auth,
      json: { sharingTagId: mature.id },
    });
    await api(`/users/${manager.id}`, {
      auth: world.admin.auth,
      method: 'PUT',
      json: { sharedLibraryIds: [world.a.id], sharingTags: [{ sharingTagId: mature.id, accessMode: 'deny' }] },
    });
    const session = await login(manager.username, manager.password);
    return { ...world, manager, managerAuth: session.auth, mature };
  }

  it('a maintainer limited to some libraries cannot share others or all, nor create an unrestricted user', async () => {
    const { managerAuth, reader, a, b, mature } = await limitedManager();
    // B is not theirs to see: to them it does not exist.
    const hidden = expectError(
      await api(`/users/${reader.id}`, { auth: managerAuth, method: 'PUT', json: { sharedLibraryIds: [b.id] } }),
      400,
      'BadRequest',
    );
    expect(hidden.message).toContain(b.id);
    const all = expectError(
      await api(`/users/${reader.id}`, { auth: managerAuth, method: 'PUT', json: { sharedAllLibraries: true } }),
      403,
      'Forbidden',
    );
    expect(all.message).toContain('every library');
    const noDeny = expectError(
      await api(`/users/${reader.id}`, { auth: managerAuth, method: 'PUT', json: { sharedLibraryIds: [a.id] } }),
      403,
      'Forbidden',
    );
    expect(noDeny.message).toContain(mature.id);
    expectError(
      await api('/users', {
        auth: managerAuth,
        json: { username: 'wide1', email: 'wide1@example.com', password: 'wide-password-1' },
      }),
      403,
      'Forbidden',
    );

    const within = await api(`/users/${reader.id}`, {
      auth: managerAuth,
      method: 'PUT',
      json: { sharedLibraryIds: [a.id], sharingTags: [{ sharingTagId: mature.id, accessMode: 'deny' }] },
    });
    expect(within.status).toBe(200);
    // Taking away the deny grant would widen the reader beyond the manager.
    expectError(
      await api(`/users/${reader.id}/sharing-tags/${mature.id}`, { auth: managerAuth, method: 'DELETE' }),
      403,
      'Forbidden',
    );
    // The tag list counts only the series the caller sees: the manager cannot see the tagged one.
    const theirs = await api('/admin/sharing-tags', { auth: managerAuth });
    expect(theirs.body.data).toEqual([expect.objectContaining({ id: mature.id, seriesCount: 0 })]);
    // Other edits of an account stay possible.
    expect(
      (await api(`/users/${reader.id}`, { auth: managerAuth, method: 'PUT', json: { email: 'r2@example.com' } }))
        .status,
    ).toBe(200);
  });

  it('an admin working through a key narrowed to library A cannot share library B', async () => {
    const { admin, reader, a, b } = await catalog();
    const key = await api('/api-keys', { auth: admin.auth, json: { name: 'narrow', library_ids: [a.id] } });
    const auth = { apiKey: key.body.key as string };
    expectError(
      await api(`/users/${reader.id}`, { auth, method: 'PUT', json: { sharedLibraryIds: [b.id] } }),
      400,
      'BadRequest',
    );
    expectError(
      await api(`/users/${reader.id}`, { auth, method: 'PUT', json: { sharedAllLibraries: true } }),
      403,
      'Forbidden',
    );
    expect((await api(`/users/${reader.id}`, { auth, method: 'PUT', json: { sharedLibraryIds: [a.id] } })).status).toBe(
      200,
    );
  });

  it('an EXCLUDE age no higher than theirs, and ALLOW_ONLY ages and allowed tags within theirs, on /api/v1 and /komga', async () => {
    const { admin, reader } = await catalog();
    const manager = await createUser(admin.auth, {
      role: 'maintainer',
      customPermissions: ['UsersRead', 'UsersWrite'],
    });
    const managerAuth = (await login(manager.username, manager.password)).auth;
    const komgaAuth: Credentials = { basic: { username: manager.username, password: manager.password } };
    const restrict = (json: unknown) => api(`/users/${manager.id}`, { auth: admin.auth, method: 'PUT', json });
    const give = (ageRestriction: unknown, extra: object = {}) =>
      api(`/users/${reader.id}`, { auth: managerAuth, method: 'PUT', json: { ageRestriction, ...extra } });
    const komgaGive = (ageRestriction: unknown) =>
      komga(`/api/v2/users/${reader.id}`, { auth: komgaAuth, method: 'PATCH', json: { ageRestriction } });
    const statuses = async (cases: unknown[]) => {
      const out = [];
      for (const c of cases) out.push((await give(c)).status);
      return out;
    };

    // The manager may not see series rated 16 or more.
    expect((await restrict({ ageRestriction: { age: 16, restriction: 'EXCLUDE' } })).status).toBe(200);
    expect(
      await statuses([
        { age: 18, restriction: 'EXCLUDE' },
        null,
        { age: 16, restriction: 'ALLOW_ONLY' },
        { age: 16, restriction: 'EXCLUDE' },
        { age: 12, restriction: 'EXCLUDE' },
        { age: 15, restriction: 'ALLOW_ONLY' },
      ]),
    ).toEqual([403, 403, 403, 200, 200, 200]);
    expect((await komgaGive({ age: 18, restriction: 'EXCLUDE' })).status).toBe(403);
    expect((await komgaGive({ age: 0, restriction: 'NONE' })).status).toBe(403);
    expect((await komgaGive({ age: 14, restriction: 'EXCLUDE' })).status).toBe(204);
    expect((await api(`/users/${reader.id}`, { auth: admin.auth })).body.ageRestriction).toEqual({
      age: 14,
      restriction: 'EXCLUDE',
    });

    // The manager sees only series rated up to 13: so must the reader, by age (not by exclusion).
    expect((await restrict({ ageRestriction: { age: 13, restriction: 'ALLOW_ONLY' } })).status).toBe(200);
    expect(
      await statuses([
        { age: 16, restriction: 'ALLOW_ONLY' },
        { age: 10, restriction: 'EXCLUDE' },
        null,
        { age: 13, restriction: 'ALLOW_ONLY' },
        { age: 6, restriction: 'ALLOW_ONLY' },
      ]),
    ).toEqual([403, 403, 403, 200, 200]);
    expect((await komgaGive({ age: 18, restriction: 'ALLOW_ONLY' })).status).toBe(403);
    expect((await komgaGive({ age: 8, restriction: 'ALLOW_ONLY' })).status).toBe(204);

    // The manager sees series by allowed tag only: the reader's allowed tags must be among theirs.
    const kids = await createTag(admin.auth, 'Kids');
    const teens = await createTag(admin.auth, 'Teens');
    expect(
      (await restrict({ ageRestriction: null, sharingTags: [{ sharingTagId: kids.id, accessMode: 'allow' }] })).status,
    ).toBe(200);
    const allow = (ids: string[]) => ids.map((sharingTagId) => ({ sharingTagId, accessMode: 'allow' }));
    expect((await give(null, { sharingTags: allow([teens.id]) })).status).toBe(403);
    expect((await give(null, { sharingTags: allow([kids.id, teens.id]) })).status).toBe(403);
    expect((await give(null, { sharingTags: [] })).status).toBe(403);
    expect((await give(null, { sharingTags: allow([kids.id]) })).status).toBe(200);
  });
});
