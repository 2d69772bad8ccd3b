/**
 * Komga's metadata search conditions as Komelia's series filter sheet and its book views send them
 * (komga-client KomgaSearchCondition: numbers as JSON numbers, dates as ISO date-times, durations as ISO
 * durations): each narrows the list in SQL, so pages and totals stay right; a malformed one is a 400
 * naming its place. Komga's greaterThan/lessThan include the value (SearchOperatorUtils).
 */
import { describe, expect, it } from 'vitest';
import { buildEpub } from '../fixtures/epub-writer';
import { jpeg } from '../fixtures/images';
import { buildPdf } from '../fixtures/pdf-writer';
import { writeRar4 } from '../fixtures/rar-writer';
import { setupAdmin } from '../support/factories';
import type { Credentials } from '../support/http';
import { komga } from '../support/komga';
import { makeCbz, putObject } from '../support/library-files';
import { AKIRA_ISBN, seedRatedCatalog } from '../support/rated-catalog';
import { createLibrary, scan } from '../support/scans';

type Condition = Record<string, unknown>;

async function names(auth: Credentials, resource: 'series' | 'books', condition: Condition) {
  const res = await komga(`/api/v1/${resource}/list?unpaged=true`, { auth, json: { condition } });
  if (res.status !== 200) throw new Error(`${resource}/list failed: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body.content as Array<{ name: string }>).map((item) => item.name).sort();
}

const afterYear = (year: number) => ({ operator: 'after', dateTime: `${year - 1}-12-31T00:00:00Z` });
const beforeYear = (year: number) => ({ operator: 'before', dateTime: `${year + 1}-01-01T00:00:00Z` });

describe('Komga metadata search conditions (Komelia filter sheet)', () => {
  it('narrows series by age rating, sharing label, completeness, one-shot, release year and sort title', async () => {
    const admin = await setupAdmin();
    await seedRatedCatalog();
    const all = ['Akira', 'Bone', 'Cerebus', 'The Dune'];
    const cases: Array<[Condition, string[]]> = [
      // Komelia's age rating chips: "16" and "None".
      [
        {
          anyOf: [
            { type: 'AgeRating', ageRating: { operator: 'is', value: 16 } },
            { type: 'AgeRating', ageRating: { operator: 'isNull' } },
          ],
        },
        ['Akira', 'Cerebus'],
      ],
      [{ ageRating: { operator: 'isNot', value: 16 } }, ['Bone', 'Cerebus', 'The Dune']],
      [{ ageRating: { operator: 'greaterThan', value: 16 } }, ['Akira', 'The Dune']],
      [{ ageRating: { operator: 'lessThan', value: '9' } }, ['Bone']],
      [{ ageRating: { operator: 'isNotNull' } }, ['Akira', 'Bone', 'The Dune']],
      [{ sharingLabel: { operator: 'is', value: 'kids' } }, ['Bone']],
      [{ sharingLabel: { operator: 'isNot', value: 'Mature' } }, ['Bone', 'Cerebus']],
      [{ sharingLabel: { operator: 'isNull' } }, ['Cerebus']],
      [{ sharingLabel: { operator: 'isNotNull' } }, ['Akira', 'Bone', 'The Dune']],
      [{ complete: { operator: 'isTrue' } }, ['Akira']],
      [{ complete: { operator: 'isFalse' } }, ['Bone']],
      [{ oneShot: { operator: 'isTrue' } }, []],
      [{ oneShot: { operator: 'isFalse' } }, all],
      // Komelia's release-year chip for 1991: after the last day of 1990, before the first of 1992.
      [{ allOf: [{ releaseDate: afterYear(1991) }, { releaseDate: beforeYear(1991) }] }, ['Bone']],
      [{ releaseDate: { operator: 'before', dateTime: '1991-06-01T00:00:00Z' } }, ['Akira', 'Bone']],
      [{ releaseDate: { operator: 'isNull' } }, ['Cerebus']],
      [{ titleSort: { operator: 'beginsWith', value: 'Dune' } }, ['The Dune']],
      [
        { allOf: [{ ageRating: { operator: 'lessThan', value: 16 } }, { complete: { operator: 'isFalse' } }] },
        ['Bone'],
      ],
    ];
    for (const [condition, expected] of cases) {
      expect(await names(admin.auth, 'series', condition), JSON.stringify(condition)).toEqual(expected);
    }

    // The condition is part of the query: a page of one still counts every match.
    const paged = await komga('/api/v1/series/list?size=1&page=0', {
      auth: admin.auth,
      json: { condition: { ageRating: { operator: 'isNotNull' } } },
    });
    expect(paged.body.content).toHaveLength(1);
    expect(paged.body.totalElements).toBe(3);
    expect(paged.body.totalPages).toBe(3);
  });

  it("reads GET /series's metadata parameters as Komga's SeriesController does", async () => {
    const admin = await setupAdmin();
    await seedRatedCatalog();
    const listed = async (query: string) => {
      const res = await komga(`/api/v1/series?unpaged=true&${query}`, { auth: admin.auth });
      expect(res.status, query).toBe(200);
      return (res.body.content as Array<{ name: string }>).map((s) => s.name).sort();
    };
    expect(await listed('age_rating=16%2C+None')).toEqual(['Akira', 'Cerebus']);
    expect(await listed('release_year=1991&release_year=someday')).toEqual(['Bone']);
    expect(await listed('sharing_label=mature')).toEqual(['Akira', 'The Dune']);
    expect(await listed('complete=false')).toEqual(['Bone']);
    expect(await listed('complete=true&age_rating=18')).toEqual([]);
    expect(await listed('oneshot=true')).toEqual([]);
    expect(await listed('oneshot=false')).toEqual(['Akira', 'Bone', 'Cerebus', 'The Dune']);
    const bad = await komga('/api/v1/series?complete=maybe', { auth: admin.auth });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('complete must be true or false');
  });

  it('narrows books by number, release date, ISBN, one-shot and poster', async () => {
    const admin = await setupAdmin();
    const { lastYear } = await seedRatedCatalog();
    const all = ['Akira 1', 'Akira 2.5', 'Bone 1', 'Cerebus 1', 'Dune 1'];
    const cases: Array<[Condition, string[]]> = [
      [{ numberSort: { operator: 'greaterThan', value: 2.5 } }, ['Akira 2.5']],
      [{ numberSort: { operator: 'lessThan', value: 1 } }, ['Akira 1', 'Bone 1', 'Dune 1']],
      [{ numberSort: { operator: 'is', value: 2.5 } }, ['Akira 2.5']],
      [{ releaseDate: { operator: 'before', dateTime: '1983-01-01T00:00:00Z' } }, ['Akira 1']],
      [{ releaseDate: afterYear(lastYear) }, ['Dune 1']],
      [{ releaseDate: { operator: 'isInTheLast', duration: 'P1000D' } }, ['Dune 1']],
      [{ releaseDate: { operator: 'isNotInTheLast', duration: 'PT24000H' } }, ['Akira 1', 'Akira 2.5']],
      [{ releaseDate: { operator: 'isNotNull' } }, ['Akira 1', 'Akira 2.5', 'Dune 1']],
      [{ isbn: { operator: 'is', value: AKIRA_ISBN } }, ['Akira 1']],
      [{ oneShot: { operator: 'isTrue' } }, []],
      // Posters: the generated cover of every book, an uploaded one on Akira 1 (selected) and Bone 1.
      [{ poster: { operator: 'is', value: { type: 'USER_UPLOADED' } } }, ['Akira 1', 'Bone 1']],
      [{ poster: { operator: 'is', value: { type: 'USER_UPLOADED', selected: true } } }, ['Akira 1']],
      [{ poster: { operator: 'is', value: { type: 'USER_UPLOADED', selected: false } } }, ['Bone 1']],
      [{ poster: { operator: 'is', value: { type: 'GENERATED', selected: false } } }, ['Akira 1']],
      [
        { poster: { operator: 'is', value: { type: 'GENERATED', selected: true } } },
        all.filter((b) => b !== 'Akira 1'),
      ],
      [{ poster: { operator: 'is', value: { type: 'GENERATED' } } }, all],
      [{ poster: { operator: 'is', value: { selected: false } } }, ['Akira 1', 'Bone 1']],
      [{ poster: { operator: 'is', value: { type: 'SIDECAR' } } }, []],
      [{ poster: { operator: 'isNot', value: { type: 'USER_UPLOADED' } } }, ['Akira 2.5', 'Cerebus 1', 'Dune 1']],
      [{ poster: { operator: 'isNot', value: { type: 'SIDECAR' } } }, all],
      [{ poster: { operator: 'isNot', value: { selected: true } } }, []],
      [{ poster: { operator: 'is', value: {} } }, all],
    ];
    for (const [condition, expected] of cases) {
      expect(await names(admin.auth, 'books', condition), JSON.stringify(condition)).toEqual(expected);
    }
  });

  it('answers a bad operator or value with a 400 naming the condition', async () => {
    const admin = await setupAdmin();
    const bad: Array<['series' | 'books', Condition, string]> = [
      ['series', { ageRating: { operator: 'contains', value: 1 } }, "condition.ageRating: operator 'contains'"],
      ['series', { allOf: [{ ageRating: { operator: 'is', value: 'adult' } }] }, 'condition.allOf.0.ageRating.value'],
      ['series', { sharingLabel: { operator: 'beginsWith', value: 'K' } }, 'condition.sharingLabel'],
      [
        'series',
        { complete: { operator: 'is', value: true } },
        'condition.complete: operator must be isTrue or isFalse',
      ],
      ['series', { oneShot: { operator: 'isNull' } }, 'condition.oneShot'],
      ['series', { releaseDate: { operator: 'after', dateTime: 'last year' } }, 'condition.releaseDate.dateTime'],
      ['books', { releaseDate: { operator: 'isInTheLast', duration: 30 } }, 'condition.releaseDate.duration'],
      ['books', { releaseDate: { operator: 'is', value: '2020-01-01' } }, "condition.releaseDate: operator 'is'"],
      ['books', { numberSort: { operator: 'isNull' } }, "condition.numberSort: operator 'isNull'"],
      ['books', { ageRating: { operator: 'is', value: 16 } }, "unknown book condition 'ageRating'"],
      ['books', { poster: { operator: 'is', value: 'GENERATED' } }, 'condition.poster.value must be an object'],
      ['books', { poster: { operator: 'is', value: { type: 'SCAN' } } }, 'condition.poster.value.type'],
      ['books', { poster: { operator: 'is', value: { selected: 'yes' } } }, 'condition.poster.value.selected'],
      ['books', { poster: { operator: 'contains', value: {} } }, "condition.poster: operator 'contains'"],
      [
        'books',
        { mediaProfile: { operator: 'is', value: 'AUDIO' } },
        "condition.mediaProfile.value: unknown media profile 'AUDIO'",
      ],
      [
        'books',
        { mediaProfile: { operator: 'contains', value: 'PDF' } },
        "condition.mediaProfile: operator 'contains'",
      ],
      ['series', { mediaProfile: { operator: 'is', value: 'PDF' } }, "unknown series condition 'mediaProfile'"],
    ];
    for (const [resource, condition, fragment] of bad) {
      const res = await komga(`/api/v1/${resource}/list`, { auth: admin.auth, json: { condition } });
      expect(res.status, JSON.stringify(condition)).toBe(400);
      expect(res.body.message, JSON.stringify(condition)).toContain(fragment);
    }
  });
});

describe('Komga mediaProfile book condition', () => {
  it('finds the books whose profile, as their DTO shows it, is or is not DIVINA, EPUB or PDF', async () => {
    const { auth } = await setupAdmin();
    const libraryId = await createLibrary(auth);
    await putObject('comics/Mixed/zipped.cbz', await makeCbz(2));
    await putObject('comics/Mixed/rarred.cbr', writeRar4([{ name: '1.jpg', data: jpeg(16, 16) }]));
    await putObject('comics/Mixed/novel.epub', buildEpub({ spine: [{ kind: 'text', bytes: 2000 }] }));
    await putObject('comics/Mixed/paper.pdf', buildPdf([{ kind: 'text', text: 'x' }]));
    await scan(auth, libraryId);

    const search = async (condition: Condition) => {
      const res = await komga('/api/v1/books/list?unpaged=true', { auth, json: { condition } });
      expect(res.status, JSON.stringify(condition)).toBe(200);
      const books = res.body.content as Array<{ url: string; media: { mediaProfile: string } }>;
      return books.map((book) => [book.url.split('/').pop(), book.media.mediaProfile]).sort();
    };
    const profile = (operator: string, value: string) => ({ type: 'MediaProfile', mediaProfile: { operator, value } });
    expect(await search(profile('is', 'DIVINA'))).toEqual([
      ['rarred.cbr', 'DIVINA'],
      ['zipped.cbz', 'DIVINA'],
    ]);
    expect(await search(profile('is', 'EPUB'))).toEqual([['novel.epub', 'EPUB']]);
    expect(await search(profile('is', 'PDF'))).toEqual([['paper.pdf', 'PDF']]);
    expect(await search(profile('isNot', 'DIVINA'))).toEqual([
      ['novel.epub', 'EPUB'],
      ['paper.pdf', 'PDF'],
    ]);
    expect(await search({ anyOf: [profile('is', 'PDF'), profile('is', 'EPUB')] })).toHaveLength(2);
    expect(await search({ allOf: [profile('isNot', 'PDF'), profile('isNot', 'EPUB')] })).toEqual([
      ['rarred.cbr', 'DIVINA'],
      ['zipped.cbz', 'DIVINA'],
    ]);
  });
});
