/**
 * The catalog of the access tests (issue 17; docs/DECISIONS.md §Organise and share): three libraries of
 * scanned CBZ files, a content-restricted maintainer, their full API key and a key narrowed to one library.
 *
 * - "Alpha Library" (shared with the user): Zork Xteen (AgeRating Teen, label Xpublic), Zork Xunrated (no
 *   rating), Zork Xadult ("Adults Only 18+": hidden by the user's EXCLUDE 18 restriction), Zork Xsecret (Teen,
 *   label Xsecret, which the user is denied);
 * - "Xbeta Library" (not shared): Zork Xbeta, two copies of one file (a duplicate group);
 * - "Xgamma Library" (shared with the user, outside the narrowed key): Zork Xgamma.
 *
 * Every string a series brings — its title, file names, genre, tag, writer, publisher, label — contains its
 * marker word (xadult, xsecret, …), so one case-insensitive search of a response finds any trace of it.
 * Restrictions are written straight into D1 (their API is another branch's); everything else goes through
 * the API and a real scan.
 */
import { eq } from 'drizzle-orm';
import {
  books,
  series,
  seriesSharingLabels,
  sharingLabels,
  tasks,
  userLibraryAccess,
  userSharingLabels,
  users,
} from '../../src/db/schema';
import { db } from './catalog-factory';
import { createApiKey, createUser, login, setupAdmin } from './factories';
import type { Credentials } from './http';
import { makeCbz, putObject } from './library-files';
import { createLibrary, scan } from './scans';
import { waitForTasks } from './tasks';

/** One series of the fixture and what marks it. */
export interface FixtureSeries {
  marker: string;
  seriesId: string;
  libraryId: string;
  bookIds: string[];
  readerHashes: string[];
}

export interface AccessFixture {
  admin: Credentials;
  adminId: string;
  user: { id: string; username: string; password: string };
  /** The restricted maintainer's full-permission API key. */
  userKey: string;
  /** The same user's key narrowed to Alpha Library. */
  narrowKey: string;
  libraries: { alpha: string; beta: string; gamma: string };
  series: Record<'xteen' | 'xunrated' | 'xadult' | 'xsecret' | 'xbeta' | 'xgamma', FixtureSeries>;
  labels: { xsecret: string; xpublic: string };
  /** A task of Xbeta Library and one of Xgamma Library (their scans). */
  betaTaskId: string;
  gammaTaskId: string;
}

const SERIES = [
  { marker: 'xteen', library: 'alpha', rating: 'Teen', books: 2 },
  { marker: 'xunrated', library: 'alpha', rating: undefined, books: 1 },
  { marker: 'xadult', library: 'alpha', rating: 'Adults Only 18+', books: 2 },
  { marker: 'xsecret', library: 'alpha', rating: 'Teen', books: 2 },
  { marker: 'xbeta', library: 'beta', rating: 'Everyone', books: 2, sameFile: true },
  { marker: 'xgamma', library: 'gamma', rating: 'Everyone', books: 2 },
] as const;

const capital = (word: string) => word[0]?.toUpperCase() + word.slice(1);

export async function buildAccessFixture(): Promise<AccessFixture> {
  const admin = await setupAdmin();
  const libraries = {
    alpha: await createLibrary(admin.auth, { name: 'Alpha Library', path: 'alpha' }),
    beta: await createLibrary(admin.auth, { name: 'Xbeta Library', path: 'beta' }),
    gamma: await createLibrary(admin.auth, { name: 'Xgamma Library', path: 'gamma' }),
  };
  for (const s of SERIES) {
    const word = capital(s.marker);
    const info = (n: number) => ({
      Series: `Zork ${word}`,
      Number: String(n),
      Genre: `${word} Genre`,
      Tags: `${word} Tag`,
      Writer: `${word} Writer`,
      Publisher: `${word} Press`,
      ...(s.rating ? { AgeRating: s.rating } : {}),
    });
    const shared = 'sameFile' in s ? await makeCbz(2, info(1)) : undefined;
    for (let n = 1; n <= s.books; n++) {
      await putObject(`${s.library}/Zork ${word}/Zork ${word} 00${n}.cbz`, shared ?? (await makeCbz(2, info(n))));
    }
  }
  const since = new Date().toISOString();
  for (const id of Object.values(libraries)) {
    const done = await scan(admin.auth, id);
    await waitForTasks(admin.auth, id, { since: done.completedAt ?? since });
  }

  const rows = await db
    .select({
      id: books.id,
      seriesId: books.seriesId,
      libraryId: books.libraryId,
      hash: books.readerHash,
      title: series.title,
    })
    .from(books)
    .innerJoin(series, eq(series.id, books.seriesId))
    .orderBy(books.fileName);
  const seriesOf = (marker: string): FixtureSeries => {
    const own = rows.filter((r) => r.title.toLowerCase() === `zork ${marker}`);
    if (own.length === 0) throw new Error(`fixture: no books of ${marker}`);
    return {
      marker,
      seriesId: own[0]?.seriesId as string,
      libraryId: own[0]?.libraryId as string,
      bookIds: own.map((r) => r.id),
      readerHashes: own.map((r) => r.hash ?? ''),
    };
  };
  const fixtureSeries = Object.fromEntries(
    SERIES.map((s) => [s.marker, seriesOf(s.marker)]),
  ) as AccessFixture['series'];

  const now = new Date().toISOString();
  const labels = { xsecret: crypto.randomUUID(), xpublic: crypto.randomUUID() };
  const user = await createUser(admin.auth, { role: 'maintainer' });
  await db.batch([
    db.insert(sharingLabels).values([
      { id: labels.xsecret, name: 'Xsecret', createdAt: now, updatedAt: now },
      { id: labels.xpublic, name: 'Xpublic', createdAt: now, updatedAt: now },
    ]),
    db.insert(seriesSharingLabels).values([
      { seriesId: fixtureSeries.xsecret.seriesId, labelId: labels.xsecret },
      { seriesId: fixtureSeries.xteen.seriesId, labelId: labels.xpublic },
    ]),
    db
      .update(users)
      .set({ sharedAllLibraries: false, ageRestrictionAge: 18, ageRestrictionMode: 'EXCLUDE' })
      .where(eq(users.id, user.id)),
    db.insert(userLibraryAccess).values([
      { userId: user.id, libraryId: libraries.alpha },
      { userId: user.id, libraryId: libraries.gamma },
    ]),
    db.insert(userSharingLabels).values({ userId: user.id, labelId: labels.xsecret, mode: 'deny', createdAt: now }),
  ]);

  const session = await login(user.username, user.password);
  const userKey = (await createApiKey(session.auth, { name: 'full' })).key;
  const narrowKey = (await createApiKey(session.auth, { name: 'tablet', library_ids: [libraries.alpha] })).key;
  const taskOf = async (libraryId: string) => {
    const task = await db.select({ id: tasks.id }).from(tasks).where(eq(tasks.libraryId, libraryId)).get();
    if (!task) throw new Error(`fixture: no task of library ${libraryId}`);
    return task.id;
  };
  return {
    admin: admin.auth,
    adminId: admin.userId,
    user,
    userKey,
    narrowKey,
    libraries,
    series: fixtureSeries,
    labels,
    betaTaskId: await taskOf(libraries.beta),
    gammaTaskId: await taskOf(libraries.gamma),
  };
}

/** A new book in a fixture series (its marker word in every field), as the next scan will find it. */
export async function addFixtureBook(library: string, marker: string, rating: string | undefined, n: number) {
  const word = capital(marker);
  const info = {
    Series: `Zork ${word}`,
    Number: String(n),
    Genre: `${word} Genre`,
    ...(rating ? { AgeRating: rating } : {}),
  };
  await putObject(`${library}/Zork ${word}/Zork ${word} 00${n}.cbz`, await makeCbz(2, info));
}

/** Every trace of these series: marker word, series and book ids, KOReader hashes. */
export function tracesOf(fixture: AccessFixture, markers: ReadonlyArray<keyof AccessFixture['series']>): string[] {
  return markers.flatMap((m) => {
    const s = fixture.series[m];
    return [m, s.seriesId, ...s.bookIds, ...s.readerHashes];
  });
}
