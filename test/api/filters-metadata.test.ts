/**
 * The metadata filter fields of API.md §4 Advanced filtering (DECISIONS.md §Lists): ageRating, year,
 * completion, sharingTag and titleSort on series; ageRating, numberSort, releaseDate, titleSort and
 * customCover and fileFormat on books — every operator each allows, and the 400s for values and operators they do not.
 */
import { describe, expect, it } from 'vitest';
import { setupAdmin } from '../support/factories';
import { type Condition, leaf, matching as matchingBody, rejection } from '../support/filter-requests';
import type { Credentials } from '../support/http';
import { seedRatedCatalog } from '../support/rated-catalog';

const matching = (auth: Credentials, resource: 'series' | 'books', condition: Condition) =>
  matchingBody(auth, resource, { condition });

describe('metadata filter fields (API.md §4, DECISIONS.md §Lists)', () => {
  it('filters series by age rating, year, completion, sharing tag and sort title', async () => {
    const admin = await setupAdmin();
    await seedRatedCatalog();
    const cases: Array<[Condition, string[]]> = [
      [leaf('ageRating', 'is', '16'), ['Akira']],
      [leaf('ageRating', 'is', 18), ['The Dune']],
      [leaf('ageRating', 'isNot', '16'), ['Bone', 'Cerebus', 'The Dune']],
      [leaf('ageRating', 'lessThan', '16'), ['Bone']],
      [leaf('ageRating', 'greaterThan', '9'), ['Akira', 'The Dune']],
      [leaf('ageRating', 'isNull'), ['Cerebus']],
      [leaf('ageRating', 'isNotNull'), ['Akira', 'Bone', 'The Dune']],
      [leaf('year', 'greaterThan', 1990), ['Bone', 'The Dune']],
      [leaf('year', 'lessThan', '1991'), ['Akira']],
      [leaf('year', 'isNull'), ['Cerebus']],
      [leaf('completion', 'is', 'true'), ['Akira']],
      [leaf('completion', 'is', 'false'), ['Bone']],
      [leaf('completion', 'isNot', 'true'), ['Bone', 'Cerebus', 'The Dune']],
      [leaf('sharingTag', 'is', 'mature'), ['Akira', 'The Dune']],
      [leaf('sharingTag', 'isNot', 'Mature'), ['Bone', 'Cerebus']],
      [leaf('sharingTag', 'contains', 'ID'), ['Bone']],
      [leaf('sharingTag', 'isNull'), ['Cerebus']],
      [leaf('sharingTag', 'isNotNull'), ['Akira', 'Bone', 'The Dune']],
      [leaf('titleSort', 'beginsWith', 'du'), ['The Dune']],
      [leaf('titleSort', 'beginsWith', 'the'), []],
      [{ allOf: [leaf('ageRating', 'lessThan', '18'), leaf('sharingTag', 'is', 'Mature')] }, ['Akira']],
    ];
    for (const [condition, expected] of cases) {
      expect(await matching(admin.auth, 'series', condition), JSON.stringify(condition)).toEqual(expected);
    }
  });

  it('filters books by age rating, number, release date, sort title and uploaded cover', async () => {
    const admin = await setupAdmin();
    const { lastYear } = await seedRatedCatalog();
    const cases: Array<[Condition, string[]]> = [
      [leaf('ageRating', 'is', '16'), ['Akira 1']],
      [leaf('ageRating', 'isNull'), ['Akira 2.5', 'Bone 1', 'Cerebus 1', 'Dune 1']],
      [leaf('numberSort', 'is', 2.5), ['Akira 2.5']],
      [leaf('numberSort', 'greaterThan', '1'), ['Akira 2.5']],
      [leaf('numberSort', 'lessThan', '2.5'), ['Akira 1', 'Bone 1', 'Dune 1']],
      [leaf('numberSort', 'isNull'), ['Cerebus 1']],
      [leaf('releaseDate', 'lessThan', '1983-01-01'), ['Akira 1']],
      [leaf('releaseDate', 'is', '1984-01-01'), ['Akira 2.5']],
      [leaf('releaseDate', 'greaterThan', '1982-12-20'), ['Akira 2.5', 'Dune 1']],
      [leaf('releaseDate', 'is', `${lastYear}-01-01`), ['Dune 1']],
      [leaf('releaseDate', 'isNull'), ['Bone 1', 'Cerebus 1']],
      [leaf('titleSort', 'beginsWith', 'akira'), ['Akira 1', 'Akira 2.5']],
      [leaf('customCover', 'is', 'any'), ['Akira 1', 'Bone 1']],
      [leaf('customCover', 'is', 'Selected'), ['Akira 1']],
      [leaf('customCover', 'is', 'unselected'), ['Bone 1']],
      [leaf('customCover', 'isNot', 'any'), ['Akira 2.5', 'Cerebus 1', 'Dune 1']],
      // The catalog is all CBZ (Komga's mediaProfile search tells the four formats apart: komga-search-metadata).
      [leaf('fileFormat', 'is', 'CBZ'), ['Akira 1', 'Akira 2.5', 'Bone 1', 'Cerebus 1', 'Dune 1']],
      [leaf('fileFormat', 'isNot', 'cbz'), []],
      [leaf('fileFormat', 'is', 'pdf'), []],
    ];
    for (const [condition, expected] of cases) {
      expect(await matching(admin.auth, 'books', condition), JSON.stringify(condition)).toEqual(expected);
    }
  });

  it('answers a value or operator a metadata field does not take with a 400 naming the path', async () => {
    const admin = await setupAdmin();
    const bad: Array<['series' | 'books', Condition, string]> = [
      ['series', leaf('ageRating', 'is', 'adult'), "condition.ageRating.value: operator 'is' needs an integer"],
      ['series', leaf('ageRating', 'is', '12.5'), 'needs an integer'],
      ['series', leaf('ageRating', 'contains', '1'), "operator 'contains' is not allowed for field 'ageRating'"],
      ['series', { allOf: [leaf('year', 'greaterThan', '')] }, 'condition.allOf.0.year.value'],
      ['series', leaf('completion', 'is', 'yes'), "'yes' is not a value of 'completion'"],
      ['series', leaf('sharingTag', 'lessThan', 'a'), "operator 'lessThan' is not allowed for field 'sharingTag'"],
      ['series', leaf('name', 'greaterThan', 'a'), "operator 'greaterThan' is not allowed for field 'name'"],
      ['books', leaf('numberSort', 'is', 'two'), "condition.numberSort.value: operator 'is' needs a number"],
      ['books', leaf('releaseDate', 'lessThan', '1982'), 'needs a date (YYYY-MM-DD)'],
      ['books', leaf('releaseDate', 'is', '1982-13-45'), 'needs a date (YYYY-MM-DD)'],
      ['books', leaf('year', 'is', '1982'), "unknown field 'year'"],
      ['books', leaf('customCover', 'is', 'yes'), "'yes' is not a value of 'customCover'"],
      ['books', leaf('fileFormat', 'is', 'mobi'), "'mobi' is not a value of 'fileFormat'"],
      ['books', leaf('fileFormat', 'contains', 'cb'), "operator 'contains' is not allowed for field 'fileFormat'"],
      ['series', leaf('fileFormat', 'is', 'cbz'), "unknown field 'fileFormat'"],
    ];
    for (const [resource, condition, fragment] of bad) {
      const error = await rejection(admin.auth, resource, condition);
      expect(error.message, JSON.stringify(condition)).toContain(fragment);
    }
  });
});
