/**
 * What a series carries that decides who sees it — its age rating and sharing labels — edited through
 * Komga's series metadata PATCH (docs/DECISIONS.md §Enforcement, §Administration): a series' rating is
 * the highest of its live books' unless locked, so clearing or unlocking it (Komf's reset) rates it from
 * its books again at once; changing it needs `UsersWrite`, but a PATCH that changes none of it (Komf
 * signed in as a maintainer) goes through. The catalog is test/support/access-fixture.ts (real scans).
 */
import { describe, expect, it } from 'vitest';
import { ADMIN, createUser, login } from '../support/factories';
import { addFixtureBook, buildAccessFixture } from '../support/access-fixture';
import { komfSeriesResetBody } from '../support/clients/komf-metadata';
import { api, type Credentials } from '../support/http';
import { komga } from '../support/komga';
import { scan } from '../support/scans';

const adminBasic: Credentials = { basic: { username: ADMIN.username, password: ADMIN.password } };

/** A reader who may not see series rated 16 or more (unrated ones pass, as in Komga). */
async function excludeSixteenReader(admin: Credentials): Promise<Credentials> {
  const kid = await createUser(admin);
  const set = await api(`/users/${kid.id}`, {
    method: 'PUT',
    auth: admin,
    json: { ageRestriction: { age: 16, restriction: 'EXCLUDE' } },
  });
  expect(set.status).toBe(200);
  return (await login(kid.username, kid.password)).auth;
}

const patchSeries = (id: string, json: unknown, auth: Credentials = adminBasic) =>
  komga(`/api/v1/series/${id}/metadata`, { method: 'PATCH', auth, json });

const ratingOf = async (id: string) => {
  const series = await komga(`/api/v1/series/${id}`, { auth: adminBasic });
  expect(series.status).toBe(200);
  return { ageRating: series.body.metadata.ageRating, ageRatingLock: series.body.metadata.ageRatingLock };
};

describe("a series' age rating follows its books unless locked", () => {
  it("Komf's reset of an 18-rated series rates it from its books again: an EXCLUDE 16 reader still gets 404", async () => {
    const f = await buildAccessFixture();
    const kid = await excludeSixteenReader(f.admin);
    const adult = f.series.xadult.seriesId;
    expect((await api(`/series/${adult}`, { auth: kid })).status).toBe(404);
    expect(await ratingOf(adult)).toEqual({ ageRating: 18, ageRatingLock: false });

    expect((await patchSeries(adult, komfSeriesResetBody('Zork Xadult'))).status).toBe(204);
    expect(await ratingOf(adult)).toEqual({ ageRating: 18, ageRatingLock: false });
    expect((await api(`/series/${adult}`, { auth: kid })).status).toBe(404);
    expect((await api(`/series/${f.series.xadult.bookIds[0]}`, { auth: kid })).status).toBe(404);

    // A locked rating stays as edited, and shows the series to the reader…
    expect((await patchSeries(adult, { ageRating: 10, ageRatingLock: true })).status).toBe(204);
    expect(await ratingOf(adult)).toEqual({ ageRating: 10, ageRatingLock: true });
    expect((await api(`/series/${adult}`, { auth: kid })).status).toBe(200);
    // …and unlocking it rates the series from its books in the same write.
    expect((await patchSeries(adult, { ageRatingLock: false })).status).toBe(204);
    expect(await ratingOf(adult)).toEqual({ ageRating: 18, ageRatingLock: false });
    expect((await api(`/series/${adult}`, { auth: kid })).status).toBe(404);
    // A value sent unlocked is not kept: the books decide.
    expect((await patchSeries(adult, { ageRating: 3, ageRatingLock: false })).status).toBe(204);
    expect(await ratingOf(adult)).toEqual({ ageRating: 18, ageRatingLock: false });
    expect((await patchSeries(adult, { ageRating: 3 })).status).toBe(204);
    expect(await ratingOf(adult)).toEqual({ ageRating: 18, ageRatingLock: false });
    expect((await api(`/series/${adult}`, { auth: kid })).status).toBe(404);
  }, 120_000);

  it('a scan rates a series as its strictest live book, and a locked rating survives the rescan', async () => {
    const f = await buildAccessFixture();
    const kid = await excludeSixteenReader(f.admin);
    const { xunrated, xteen } = f.series;
    expect(await ratingOf(xunrated.seriesId)).toEqual({ ageRating: null, ageRatingLock: false });
    expect((await api(`/series/${xunrated.seriesId}`, { auth: kid })).status).toBe(200);
    expect((await patchSeries(xteen.seriesId, { ageRating: 10, ageRatingLock: true })).status).toBe(204);

    // An unrated series gains an 18-rated book beside its unrated one; a locked Teen series a Mature one.
    await addFixtureBook('alpha', 'xunrated', 'Adults Only 18+', 2);
    await addFixtureBook('alpha', 'xteen', 'M', 3);
    await addFixtureBook('alpha', 'xteen', 'Everyone', 4);
    await scan(f.admin, f.libraries.alpha);

    expect(await ratingOf(xunrated.seriesId)).toEqual({ ageRating: 18, ageRatingLock: false });
    expect((await api(`/series/${xunrated.seriesId}`, { auth: kid })).status).toBe(404);
    expect((await api(`/books/${xunrated.bookIds[0]}`, { auth: kid })).status).toBe(404);
    expect(await ratingOf(xteen.seriesId)).toEqual({ ageRating: 10, ageRatingLock: true });
    expect((await api(`/series/${xteen.seriesId}`, { auth: kid })).status).toBe(200);

    // Unlocked, the Teen series is rated as its Mature book (17): hidden from the reader.
    expect((await patchSeries(xteen.seriesId, { ageRatingLock: false })).status).toBe(204);
    expect(await ratingOf(xteen.seriesId)).toEqual({ ageRating: 17, ageRatingLock: false });
    expect((await api(`/series/${xteen.seriesId}`, { auth: kid })).status).toBe(404);
  }, 120_000);
});

describe('the sharing fields of the series metadata PATCH need UsersWrite (and only when they change something)', () => {
  it("a maintainer's Komf PATCH whose rating and labels change nothing succeeds; changing them is a 403 that writes nothing", async () => {
    const f = await buildAccessFixture();
    const maintainer = await createUser(f.admin, { role: 'maintainer' });
    const auth: Credentials = { basic: { username: maintainer.username, password: maintainer.password } };
    const teen = f.series.xteen.seriesId;
    const adult = f.series.xadult.seriesId;

    // Komf's reset as a maintainer: ageRating null and unlocked, as stored — the whole PATCH applies.
    const reset = await patchSeries(adult, { ...komfSeriesResetBody('Zork Xadult Reset') }, auth);
    expect(reset.status).toBe(204);
    expect((await api(`/series/${adult}`, { auth: f.admin })).body.title).toBe('Zork Xadult Reset');
    expect(await ratingOf(adult)).toEqual({ ageRating: 18, ageRatingLock: false });
    // A provider's rating sent unlocked changes nothing either (the books rate an unlocked series).
    expect((await patchSeries(adult, { ageRating: 16, summary: 'From a provider' }, auth)).status).toBe(204);
    expect(await ratingOf(adult)).toEqual({ ageRating: 18, ageRatingLock: false });
    // The labels the series already has (any case), with their lock as stored.
    const same = await patchSeries(
      teen,
      { sharingLabels: ['XPUBLIC'], sharingLabelsLock: false, title: 'Zork Xteen Two' },
      auth,
    );
    expect(same.status).toBe(204);
    expect((await api(`/series/${teen}`, { auth: f.admin })).body.title).toBe('Zork Xteen Two');

    // Changing any of them is user administration: 403, and the other fields of the PATCH stay unwritten.
    const refused = [
      { ageRating: 3, ageRatingLock: true },
      { ageRatingLock: true },
      { sharingLabels: ['Xpublic', 'Kids'] },
      { sharingLabels: [] },
      { sharingLabelsLock: true },
    ];
    for (const change of refused) {
      const response = await patchSeries(teen, { ...change, title: 'Changed' }, auth);
      expect(response.status, JSON.stringify(change)).toBe(403);
    }
    expect((await api(`/series/${teen}`, { auth: f.admin })).body.title).toBe('Zork Xteen Two');
    expect(await ratingOf(teen)).toEqual({ ageRating: 13, ageRatingLock: false });
    const tags = await api(`/series/${teen}/sharing-tags`, { auth: f.admin });
    expect(tags.body.map((t: { name: string }) => t.name)).toEqual(['Xpublic']);
    // No label was created by a refused PATCH.
    expect((await komga('/api/v1/sharing-labels', { auth: adminBasic })).body).not.toContain('kids');

    // The admin (UsersWrite) changes them.
    expect(
      (await patchSeries(teen, { sharingLabels: ['Xpublic', 'Kids'], ageRating: 3, ageRatingLock: true })).status,
    ).toBe(204);
    expect(await ratingOf(teen)).toEqual({ ageRating: 3, ageRatingLock: true });
  }, 120_000);
});
