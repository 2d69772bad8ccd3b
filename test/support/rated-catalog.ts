/**
 * TEST FACTORY: a small catalog whose series and books differ in the metadata the metadata filters test
 * (age rating, year, total book count, sharing labels, sort title; a book's number, release date, ISBN),
 * for the /api/v1 filter fields and the /komga search conditions translated to them.
 *
 * | series    | age | year | total/live | labels       | titleSort |
 * | Akira     | 16  | 1982 | 2/2        | Mature       | Akira     |
 * | Bone      | 9   | 1991 | 3/1        | Kids         | Bone      |
 * | Cerebus   | –   | –    | –/1        | –            | Cerebus   |
 * | The Dune  | 18  | 2020 | –/1        | Mature       | Dune      |
 *
 * Books: "Akira 1" (no. 1, 1982-12-20, age 16, ISBN, an uploaded cover selected), "Akira 2.5" (no. 2.5,
 * 1984), "Bone 1" (no. 1, no date, an uploaded cover not selected), "Cerebus 1" (no number, no date),
 * "Dune 1" (no. 1, January of last year).
 */
import { covers, sharingLabels, seriesSharingLabels } from '../../src/db/schema';
import { db, seedBook, seedLibrary, seedSeries } from './catalog-factory';

export const AKIRA_ISBN = '978-4-06-319341-0';

export async function seedRatedCatalog() {
  const library = await seedLibrary({ name: 'Rated' });
  const akira = await seedSeries(library, { title: 'Akira', ageRating: 16, year: 1982, totalBookCount: 2 });
  const bone = await seedSeries(library, { title: 'Bone', ageRating: 9, year: 1991, totalBookCount: 3 });
  const cerebus = await seedSeries(library, { title: 'Cerebus' });
  const dune = await seedSeries(library, { title: 'The Dune', titleSort: 'Dune', ageRating: 18, year: 2020 });
  const akira1 = await seedBook(akira, {
    title: 'Akira 1',
    number: 1,
    year: 1982,
    month: 12,
    day: 20,
    ageRating: 16,
    isbn: AKIRA_ISBN,
  });
  await seedBook(akira, { title: 'Akira 2.5', number: 2, numberSort: 2.5, year: 1984 });
  const bone1 = await seedBook(bone, { title: 'Bone 1', number: 1 });
  await seedBook(cerebus, { title: 'Cerebus 1' });
  const lastYear = new Date().getUTCFullYear() - 1;
  await seedBook(dune, { title: 'Dune 1', number: 1, year: lastYear, month: 1 });

  const now = new Date().toISOString();
  const [mature, kids] = [crypto.randomUUID(), crypto.randomUUID()];
  await db.batch([
    db.insert(sharingLabels).values([
      { id: mature, name: 'Mature', createdAt: now, updatedAt: now },
      { id: kids, name: 'Kids', createdAt: now, updatedAt: now },
    ]),
    db.insert(seriesSharingLabels).values([
      { seriesId: akira.id, labelId: mature },
      { seriesId: dune.id, labelId: mature },
      { seriesId: bone.id, labelId: kids },
    ]),
    db.insert(covers).values(
      [
        { bookId: akira1.id, selected: true },
        { bookId: bone1.id, selected: false },
      ].map((cover) => ({
        ...cover,
        id: crypto.randomUUID(),
        mediaType: 'image/png',
        fileSize: 100,
        width: 10,
        height: 15,
        createdAt: now,
        updatedAt: now,
      })),
    ),
  ]);
  return { library, lastYear };
}
