/**
 * Komga's user administration as Komelia drives it (test/support/clients/komelia-users.ts): the UserDto Komelia
 * decodes, its add/edit/delete dialogs, the sharing-label and age-rating referentials, and the sharing part of
 * the series metadata PATCH — one model with /api/v1, so a change made in either shows in the other (issue 17).
 */
import { describe, expect, it } from 'vitest';
import {
  KomeliaUserDto,
  komeliaReferentialPath,
  komeliaUserCreateBody,
  komeliaUserUpdateBody,
  komgaContentAllowed,
} from '../support/clients/komelia-users';
import { seedLibrary, seedSeriesWithBooks } from '../support/catalog-factory';
import { setupAdmin } from '../support/factories';
import { api, type Credentials } from '../support/http';
import { komga } from '../support/komga';

const KID = { email: 'kid@example.com', password: 'kid-password-1' };
const kidAuth: Credentials = { basic: { username: KID.email, password: KID.password } };

async function world() {
  const admin = await setupAdmin();
  const auth: Credentials = { basic: { username: 'admin@example.com', password: 'admin-password-1' } };
  const a = await seedLibrary({ name: 'Family' });
  const b = await seedLibrary({ name: 'Grown-ups' });
  const series = {
    kids: (await seedSeriesWithBooks(a, 1, { title: 'Kid Detectives', ageRating: 6 })).series,
    teen: (await seedSeriesWithBooks(a, 1, { title: 'Teen Titans Go', ageRating: 13 })).series,
    noir: (await seedSeriesWithBooks(a, 1, { title: 'Late Night Noir', ageRating: 18 })).series,
    office: (await seedSeriesWithBooks(b, 1, { title: 'Office Drama' })).series,
  };
  return { admin, auth, a, b, series };
}

async function komgaTitles(auth: Credentials): Promise<string[]> {
  const page = await komga('/api/v1/series?unpaged=true', { auth });
  expect(page.status).toBe(200);
  return (page.body.content as Array<{ metadata: { title: string } }>).map((s) => s.metadata.title).sort();
}

describe('Komga user administration (Komelia Settings → Users)', () => {
  it('adds, lists, restricts and deletes a user the way Komelia does, and the user sees only what is shared', async () => {
    const { auth, a, series } = await world();
    const me = await komga('/api/v2/users/me', { auth });
    expect(me.status).toBe(200);
    const admin = KomeliaUserDto.parse(me.body);
    expect(admin).toMatchObject({ roles: expect.arrayContaining(['USER', 'ADMIN']), sharedAllLibraries: true });
    expect(me.body).toHaveProperty('ageRestriction', null);

    const created = await komga('/api/v2/users', { auth, json: komeliaUserCreateBody(KID.email, KID.password) });
    expect(created.status).toBe(201);
    const kid = KomeliaUserDto.parse(created.body);
    expect(kid).toMatchObject({
      email: KID.email,
      sharedAllLibraries: true,
      sharedLibrariesIds: [],
      ageRestriction: null,
    });
    expect(kid.roles).not.toContain('ADMIN');

    const listed = await komga('/api/v2/users', { auth });
    expect(listed.status).toBe(200);
    const users = KomeliaUserDto.array().parse(listed.body);
    expect(users.map((u) => u.email).sort()).toEqual(['admin@example.com', KID.email]);
    expect(await komgaTitles(kidAuth)).toHaveLength(4);

    const edit = {
      administrator: false,
      pageStreaming: true,
      fileDownload: true,
      shareAllLibraries: false,
      sharedLibraries: [a.id],
      ageRestriction: 'ALLOW_ONLY' as const,
      age: 13,
      labelsAllow: [],
      labelsExclude: ['Mature'],
    };
    const body = komeliaUserUpdateBody(kid, edit);
    expect(Object.keys(body).sort()).toEqual(['ageRestriction', 'labelsExclude', 'sharedLibraries']);
    const patched = await komga(`/api/v2/users/${kid.id}`, { auth, method: 'PATCH', json: body });
    expect(patched.status).toBe(204);

    const after = KomeliaUserDto.parse(
      (await komga('/api/v2/users', { auth })).body.find((u: { id: string }) => u.id === kid.id),
    );
    expect(after).toMatchObject({
      sharedAllLibraries: false,
      sharedLibrariesIds: [a.id],
      ageRestriction: { age: 13, restriction: 'ALLOW_ONLY' },
      labelsAllow: [],
      labelsExclude: ['mature'],
    });
    // The kid's own users/me, as Komelia reads it at login.
    expect(KomeliaUserDto.parse((await komga('/api/v2/users/me', { auth: kidAuth })).body)).toMatchObject({
      sharedLibrariesIds: [a.id],
      labelsExclude: ['mature'],
    });
    expect(await komgaTitles(kidAuth)).toEqual(['Kid Detectives', 'Teen Titans Go']);
    expect((await komga(`/api/v1/series/${series.noir.id}`, { auth: kidAuth })).status).toBe(404);

    // Komelia removes a restriction by sending null.
    const cleared = komeliaUserUpdateBody(after, {
      ...edit,
      labelsExclude: after.labelsExclude,
      ageRestriction: 'NONE',
    });
    expect(cleared).toEqual({ ageRestriction: null });
    expect((await komga(`/api/v2/users/${kid.id}`, { auth, method: 'PATCH', json: cleared })).status).toBe(204);
    expect(await komgaTitles(kidAuth)).toEqual(['Kid Detectives', 'Late Night Noir', 'Teen Titans Go']);

    expect((await komga(`/api/v2/users/${kid.id}`, { auth, method: 'DELETE' })).status).toBe(204);
    expect((await komga('/api/v2/users/me', { auth: kidAuth })).status).toBe(401);
  });

  it('the same model as /api/v1: a change made on either side shows on the other', async () => {
    const { admin, auth, a, b } = await world();
    const created = KomeliaUserDto.parse(
      (await komga('/api/v2/users', { auth, json: komeliaUserCreateBody(KID.email, KID.password) })).body,
    );
    await komga(`/api/v2/users/${created.id}`, {
      auth,
      method: 'PATCH',
      json: {
        sharedLibraries: { all: false, libraryIds: [b.id] },
        labelsAllow: ['Kids', 'mature'],
        labelsExclude: ['Mature'],
      },
    });
    const v1 = await api(`/users/${created.id}`, { auth: admin.auth });
    expect(v1.body).toMatchObject({ username: 'kid', sharedAllLibraries: false, sharedLibraryIds: [b.id] });
    // Excluded wins over allowed (Komga); the unknown labels were created.
    expect(
      v1.body.sharingTags.map((t: { name: string; accessMode: string }) => `${t.name}:${t.accessMode}`).sort(),
    ).toEqual(['Kids:allow', 'Mature:deny']);
    const tags = await api('/admin/sharing-tags', { auth: admin.auth });
    expect(tags.body.data.map((t: { name: string }) => t.name).sort()).toEqual(['Kids', 'Mature']);

    await api(`/users/${created.id}`, {
      auth: admin.auth,
      method: 'PUT',
      json: { sharedLibraryIds: [a.id], ageRestriction: { age: 16, restriction: 'EXCLUDE' }, sharingTags: [] },
    });
    const komgaView = (await komga('/api/v2/users', { auth })).body.find((u: { id: string }) => u.id === created.id);
    expect(KomeliaUserDto.parse(komgaView)).toMatchObject({
      sharedLibrariesIds: [a.id],
      ageRestriction: { age: 16, restriction: 'EXCLUDE' },
      labelsAllow: [],
      labelsExclude: [],
    });
  });

  it('refuses what Komga refuses, and bad input with a 400 that changes nothing', async () => {
    const { auth, admin } = await world();
    const self = KomeliaUserDto.parse((await komga('/api/v2/users/me', { auth })).body);
    expect((await komga(`/api/v2/users/${self.id}`, { auth, method: 'PATCH', json: { roles: ['USER'] } })).status).toBe(
      403,
    );
    expect((await komga(`/api/v2/users/${self.id}`, { auth, method: 'DELETE' })).status).toBe(403);

    const kid = KomeliaUserDto.parse(
      (await komga('/api/v2/users', { auth, json: komeliaUserCreateBody(KID.email, KID.password) })).body,
    );
    const again = await komga('/api/v2/users', { auth, json: komeliaUserCreateBody(KID.email, 'other-password-2') });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('A user with this email already exists');
    expect(
      (await komga('/api/v2/users', { auth, json: komeliaUserCreateBody('weak@example.com', 'abc') })).status,
    ).toBe(400);

    const unknown = '00000000-0000-4000-8000-000000000000';
    const bad = await komga(`/api/v2/users/${kid.id}`, {
      auth,
      method: 'PATCH',
      json: {
        sharedLibraries: { all: false, libraryIds: [unknown] },
        ageRestriction: { age: 10, restriction: 'EXCLUDE' },
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain(unknown);
    expect(
      (
        await komga(`/api/v2/users/${kid.id}`, {
          auth,
          method: 'PATCH',
          json: { ageRestriction: { age: -3, restriction: 'EXCLUDE' } },
        })
      ).status,
    ).toBe(400);
    const unchanged = await api(`/users/${kid.id}`, { auth: admin.auth });
    expect(unchanged.body).toMatchObject({ sharedAllLibraries: true, ageRestriction: null });
    expect((await komga(`/api/v2/users/${unknown}`, { auth, method: 'PATCH', json: {} })).status).toBe(404);

    // Roles: USER is ignored, ADMIN promotes, its absence demotes.
    expect(
      (await komga(`/api/v2/users/${kid.id}`, { auth, method: 'PATCH', json: { roles: ['USER', 'ADMIN'] } })).status,
    ).toBe(204);
    expect((await api(`/users/${kid.id}`, { auth: admin.auth })).body.role).toBe('admin');
    expect(
      (await komga(`/api/v2/users/${kid.id}`, { auth, method: 'PATCH', json: { roles: ['USER', 'FILE_DOWNLOAD'] } }))
        .status,
    ).toBe(204);
    expect((await api(`/users/${kid.id}`, { auth: admin.auth })).body.role).toBe('reader');

    // A reader cannot administer users.
    expect((await komga('/api/v2/users', { auth: kidAuth })).status).toBe(403);
    expect((await komga(`/api/v2/users/${self.id}`, { auth: kidAuth, method: 'DELETE' })).status).toBe(403);
  });
});

describe('sharing labels and age ratings on /komga', () => {
  it('the series metadata PATCH sets labels by name and the age rating with their locks; the referentials list only visible values', async () => {
    const { auth, admin, a, series } = await world();
    const kidId = KomeliaUserDto.parse(
      (await komga('/api/v2/users', { auth, json: komeliaUserCreateBody(KID.email, KID.password) })).body,
    ).id;

    const patch = await komga(`/api/v1/series/${series.teen.id}/metadata`, {
      auth,
      method: 'PATCH',
      json: {
        sharingLabels: ['Mature', 'teens'],
        sharingLabelsLock: true,
        ageRating: 16,
        ageRatingLock: true,
        title: 'Teen Titans Go!',
      },
    });
    expect(patch.status).toBe(204);
    const v1Tags = await api(`/series/${series.teen.id}/sharing-tags`, { auth: admin.auth });
    expect(v1Tags.body.map((t: { name: string }) => t.name).sort()).toEqual(['Mature', 'teens']);
    // One PATCH, both halves: the metadata handler applies Komga's other fields (the title) as well.
    expect((await api(`/series/${series.teen.id}`, { auth: admin.auth })).body.title).toBe('Teen Titans Go!');
    // Komelia's series edit dialog reads them back from the series.
    expect((await komga(`/api/v1/series/${series.teen.id}`, { auth })).body.metadata).toMatchObject({
      sharingLabels: ['mature', 'teens'],
      sharingLabelsLock: true,
      ageRating: 16,
      ageRatingLock: true,
    });

    expect((await komga(komeliaReferentialPath('sharing-labels'), { auth })).body).toEqual(['mature', 'teens']);
    expect((await komga(komeliaReferentialPath('age-ratings'), { auth })).body).toEqual(['None', '6', '16', '18']);
    expect((await komga(komeliaReferentialPath('age-ratings', [a.id]), { auth })).body).toEqual(['6', '16', '18']);

    await komga(`/api/v2/users/${kidId}`, {
      auth,
      method: 'PATCH',
      json: { labelsExclude: ['mature'], ageRestriction: { age: 17, restriction: 'EXCLUDE' } },
    });
    const kidUser = KomeliaUserDto.parse((await komga('/api/v2/users/me', { auth: kidAuth })).body);
    // What the kid sees agrees with Komga's own rule.
    const expected = [
      { title: 'Kid Detectives', ageRating: 6, sharingLabels: [] },
      { title: 'Teen Titans Go', ageRating: 16, sharingLabels: ['mature', 'teens'] },
      { title: 'Late Night Noir', ageRating: 18, sharingLabels: [] },
      { title: 'Office Drama', ageRating: null, sharingLabels: [] },
    ]
      .filter((s) => komgaContentAllowed(kidUser, s))
      .map((s) => s.title)
      .sort();
    expect(await komgaTitles(kidAuth)).toEqual(expected);
    expect(expected).toEqual(['Kid Detectives', 'Office Drama']);
    expect((await komga('/api/v1/sharing-labels', { auth: kidAuth })).body).toEqual([]);
    expect((await komga('/api/v1/age-ratings', { auth: kidAuth })).body).toEqual(['None', '6']);

    // A hidden series' metadata cannot be edited by the kid (404 before any permission talk), nor a missing one.
    expect(
      (
        await komga(`/api/v1/series/${series.noir.id}/metadata`, {
          auth,
          method: 'PATCH',
          json: { sharingLabels: null },
        })
      ).status,
    ).toBe(204);
    expect(
      (await komga('/api/v1/series/00000000-0000-4000-8000-000000000000/metadata', { auth, method: 'PATCH', json: {} }))
        .status,
    ).toBe(404);
    expect(
      (await komga(`/api/v1/series/${series.teen.id}/metadata`, { auth, method: 'PATCH', json: { ageRating: 'old' } }))
        .status,
    ).toBe(400);
  });
});
