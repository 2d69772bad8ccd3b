/**
 * What a series carries that decides who sees it — its age rating and sharing labels — edited through
 * Komga's series metadata PATCH and /api/v1's (`PATCH /series/{id}/metadata` `ageRating`, its lock in
 * `PUT …/metadata/locks`; docs/DECISIONS.md §Enforcement, §Administration): a series' rating is
 * the highest of its live books' unless locked, so clearing or unlocking it (Komf's reset) rates it from
 * its books again at once; changing it needs `UsersWrite`, but a PATCH that changes none of it (Komf
 * signed in as a maintainer) goes through. The catalog is test/support/access-fixture.ts (real scans).
 */
import { describe, expect, it } from 'vitest';
import { ADMIN, createUser, login } from '../support/factories';
import { addFixtureBook, buildAccessFixture } from '../support/access-fixture';
import { komfSeriesResetBody } from '../support/clients/komf-metadata';
import { api, type Credentials, expectError } from '../support/http';
import { komga } from '../support/komga';
import { putObject } from '../support/library-files';
import { scan } from '../support/scans';
import { buildEpub } from '../fixtures/epub-writer';
import { jpeg } from '../fixtures/images';

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

describe('EPUB books have no rating (EPUB has no standard rating element)', () => {
  it('an EPUB whose package names an "AgeRating" leaves its book and series unrated: an EXCLUDE 16 reader sees them', async () => {
    const f = await buildAccessFixture();
    const kid = await excludeSixteenReader(f.admin);
    const epub = buildEpub({
      spine: [{ kind: 'wrapper', image: jpeg(300, 400, { seed: 7 }) }],
      metadataXml:
        '<meta name="AgeRating" content="Adults Only 18+"/><meta property="schema:contentRating">Adults Only 18+</meta>',
    });
    await putObject('alpha/Zork Xepub/Zork Xepub 001.epub', epub);
    await scan(f.admin, f.libraries.alpha);

    const listed = await api(`/series?library_id=${f.libraries.alpha}&pageSize=100`, { auth: f.admin });
    const series = listed.body.data.find((s: { path: string | null }) => s.path?.includes('Zork Xepub'));
    expect(series).toBeDefined();
    expect(series.ageRating).toBeNull();
    const books = await api(`/series/${series.id}/books`, { auth: f.admin });
    expect(
      books.body.data.map((b: { fileFormat: string; ageRating: number | null }) => [b.fileFormat, b.ageRating]),
    ).toEqual([['epub', null]]);
    expect(await ratingOf(series.id)).toEqual({ ageRating: null, ageRatingLock: false });
    expect((await api(`/series/${series.id}`, { auth: kid })).status).toBe(200);
    expect((await api(`/series/${f.series.xadult.seriesId}`, { auth: kid })).status).toBe(404);
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

describe("/api/v1 shows and edits a series' age rating through the same service as Komga's PATCH", () => {
  const v1Metadata = (id: string, json: unknown, auth: Credentials) =>
    api(`/series/${id}/metadata`, { method: 'PATCH', auth, json });
  const v1Locks = (id: string, json: unknown, auth: Credentials) =>
    api(`/series/${id}/metadata/locks`, { method: 'PUT', auth, json });

  it("an admin's rating of 18 hides the series from an EXCLUDE 16 reader; null or unlocking brings the books' back", async () => {
    const f = await buildAccessFixture();
    const kid = await excludeSixteenReader(f.admin);
    const teen = f.series.xteen.seriesId;
    const teenBook = f.series.xteen.bookIds[0];
    // The Series and Book responses carry the rating: the series' (its books' highest) and the book's own.
    expect((await api(`/series/${teen}`, { auth: f.admin })).body.ageRating).toBe(13);
    expect((await api(`/books/${teenBook}`, { auth: f.admin })).body.ageRating).toBe(13);
    expect((await api(`/series/${f.series.xunrated.seriesId}`, { auth: f.admin })).body.ageRating).toBeNull();
    const listed = await api(`/series?library_id=${f.libraries.alpha}&pageSize=100`, { auth: f.admin });
    const adultRow = listed.body.data.find((s: { id: string }) => s.id === f.series.xadult.seriesId);
    expect(adultRow.ageRating).toBe(18);
    expect((await api(`/series/${teen}/metadata`, { auth: f.admin })).body).toMatchObject({
      ageRating: 13,
      locks: { ageRating: false },
    });
    expect((await api(`/series/${teen}`, { auth: kid })).status).toBe(200);

    const rated = await v1Metadata(teen, { ageRating: 18 }, f.admin);
    expect(rated.status).toBe(200);
    expect(rated.body).toMatchObject({ ageRating: 18, locks: { ageRating: true } });
    expect((await api(`/series/${teen}/metadata/locks`, { auth: f.admin })).body.ageRating).toBe(true);
    expect((await api(`/series/${teen}`, { auth: f.admin })).body.ageRating).toBe(18);
    expect(await ratingOf(teen)).toEqual({ ageRating: 18, ageRatingLock: true });
    expect((await api(`/series/${teen}`, { auth: kid })).status).toBe(404);
    expect((await api(`/books/${teenBook}`, { auth: kid })).status).toBe(404);
    // The book keeps its own rating: the series' is what an admin set.
    expect((await api(`/books/${teenBook}`, { auth: f.admin })).body.ageRating).toBe(13);

    // null rates the series from its books again (and unlocks it).
    const cleared = await v1Metadata(teen, { ageRating: null }, f.admin);
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ ageRating: 13, locks: { ageRating: false } });
    expect((await api(`/series/${teen}`, { auth: kid })).status).toBe(200);

    // Turning the lock off does the same; turning it on keeps the current rating as edited.
    expect((await v1Metadata(teen, { ageRating: 17, summary: 'Rated' }, f.admin)).body).toMatchObject({
      ageRating: 17,
      summary: 'Rated',
      locks: { ageRating: true, summary: true },
    });
    expect((await api(`/series/${teen}`, { auth: kid })).status).toBe(404);
    const unlocked = await v1Locks(teen, { ageRating: false }, f.admin);
    expect(unlocked.status).toBe(200);
    expect(unlocked.body).toMatchObject({ ageRating: false, summary: true });
    expect(await ratingOf(teen)).toEqual({ ageRating: 13, ageRatingLock: false });
    expect((await api(`/series/${teen}`, { auth: kid })).status).toBe(200);
    expect((await v1Locks(teen, { ageRating: true }, f.admin)).body.ageRating).toBe(true);
    expect(await ratingOf(teen)).toEqual({ ageRating: 13, ageRatingLock: true });
  }, 120_000);

  it("a maintainer's rating change is a 403 that writes nothing; an edit without one, or one that changes nothing, passes", async () => {
    const f = await buildAccessFixture();
    const maintainer = await createUser(f.admin, { role: 'maintainer' });
    const auth = (await login(maintainer.username, maintainer.password)).auth;
    const teen = f.series.xteen.seriesId;

    for (const change of [{ ageRating: 3 }, { ageRating: 13 }, { ageRating: 18, title: 'Changed' }]) {
      const refused = await v1Metadata(teen, change, auth);
      expectError(refused, 403, 'Forbidden');
      expect(refused.text).toContain('UsersWrite');
    }
    expectError(await v1Locks(teen, { ageRating: true, summary: true }, auth), 403, 'Forbidden');
    expect((await api(`/series/${teen}/metadata`, { auth: f.admin })).body).toMatchObject({
      title: 'Zork Xteen',
      ageRating: 13,
      locks: { ageRating: false, summary: false, title: false },
    });

    const titled = await v1Metadata(teen, { title: 'Zork Xteen Two', ageRating: null }, auth);
    expect(titled.status).toBe(200);
    expect(titled.body).toMatchObject({ title: 'Zork Xteen Two', ageRating: 13, locks: { ageRating: false } });
    expect((await v1Locks(teen, { ageRating: false, title: false }, auth)).status).toBe(200);
  }, 120_000);

  it('a bad rating or lock is a 400 naming the field, and nothing changes', async () => {
    const f = await buildAccessFixture();
    const teen = f.series.xteen.seriesId;
    for (const ageRating of [-1, 256, 12.5, 'adult', true]) {
      const bad = await v1Metadata(teen, { ageRating, summary: 'Not written' }, f.admin);
      expectError(bad, 400, 'BadRequest');
      expect(bad.text, JSON.stringify(ageRating)).toContain('ageRating');
    }
    const badLock = await v1Locks(teen, { ageRating: 'yes' }, f.admin);
    expectError(badLock, 400, 'BadRequest');
    expect(badLock.text).toContain('ageRating');
    // The bulk edits do not take the rating (it is user administration, edited one series at a time).
    const bulk = await api('/series/bulk/metadata', {
      method: 'PATCH',
      auth: f.admin,
      json: { seriesIds: [teen], ageRating: 3 },
    });
    expectError(bulk, 400, 'BadRequest');
    expect(bulk.text).toContain('ageRating');
    const after = (await api(`/series/${teen}/metadata`, { auth: f.admin })).body;
    expect(after).toMatchObject({ ageRating: 13, locks: { ageRating: false, summary: false } });
    expect(after.summary).not.toBe('Not written');
  }, 120_000);
});
