import { describe, expect, it } from 'vitest';
import { AppError } from '../lib/errors';
import {
  authorCondition,
  authorParams,
  bookQueryCondition,
  fromKomgaSearch,
  listParam,
  firstIsValue,
  mediaProfileCondition,
  mediaStatusLeaf,
  readStatusLeaf,
  seriesQueryCondition,
  seriesStatusCondition,
} from './komga-conditions';

const query =
  (params: Record<string, string[]>) =>
  (name: string): string[] =>
    params[name] ?? [];

const badRequest = (run: () => unknown): string => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).status).toBe(400);
    return (error as AppError).message;
  }
  throw new Error('expected a 400');
};

describe('Komga filters in Longbox conditions (Mihon query parameters, Komelia search bodies)', () => {
  it('maps read statuses in any case and refuses unknown ones', () => {
    expect(readStatusLeaf('in_progress')).toEqual({ readStatus: { operator: 'is', value: 'in_progress' } });
    expect(readStatusLeaf('READ', 'isNot')).toEqual({ readStatus: { operator: 'isNot', value: 'read' } });
    expect(badRequest(() => readStatusLeaf('SKIMMED'))).toContain('SKIMMED');
  });

  it('matches a Komga series status against the free-text statuses meaning it; ONGOING also without one', () => {
    const ended = seriesStatusCondition('ended') as { anyOf: unknown[] };
    expect(ended.anyOf).toContainEqual({ status: { operator: 'is', value: 'completed' } });
    expect(ended.anyOf).not.toContainEqual({ status: { operator: 'isNull' } });
    const ongoing = seriesStatusCondition('ONGOING') as { anyOf: unknown[] };
    expect(ongoing.anyOf).toContainEqual({ status: { operator: 'isNull' } });
    const notEnded = seriesStatusCondition('ENDED', true) as { allOf: unknown[] };
    expect(notEnded.allOf).toContainEqual({ status: { operator: 'isNot', value: 'finished' } });
    expect(badRequest(() => seriesStatusCondition('PAUSED_FOREVER'))).toContain('PAUSED_FOREVER');
  });

  it('maps media statuses to the analysis error flag; statuses Longbox cannot tell apart do not narrow', () => {
    expect(mediaStatusLeaf('ERROR')).toEqual({ hasError: { operator: 'is', value: 'true' } });
    expect(mediaStatusLeaf('ready', 'isNot')).toEqual({ hasError: { operator: 'isNot', value: 'false' } });
    expect(mediaStatusLeaf('UNKNOWN')).toBeUndefined();
    expect(badRequest(() => mediaStatusLeaf('BROKEN'))).toContain('BROKEN');
  });

  it('maps a media profile to the formats the book DTO gives it; unknown profiles are a 400 naming the path', () => {
    expect(mediaProfileCondition('divina', 'is')).toEqual({
      anyOf: [{ fileFormat: { operator: 'is', value: 'cbz' } }, { fileFormat: { operator: 'is', value: 'cbr' } }],
    });
    expect(mediaProfileCondition('PDF', 'isNot')).toEqual({ fileFormat: { operator: 'isNot', value: 'pdf' } });
    expect(badRequest(() => mediaProfileCondition('AUDIO', 'is', 'condition.mediaProfile'))).toContain(
      'condition.mediaProfile.value',
    );
  });

  it('finds the list a position sort follows: the first `is` leaf of the field, depth first', () => {
    const condition = {
      allOf: [
        { collectionId: { operator: 'isNot', value: 'a' } },
        { anyOf: [{ libraryId: { operator: 'is', value: 'l' } }, { collectionId: { operator: 'is', value: 'b' } }] },
        { collectionId: { operator: 'is', value: 'c' } },
      ],
    };
    expect(firstIsValue(condition, 'collectionId')).toBe('b');
    expect(firstIsValue(condition, 'readListId')).toBeUndefined();
    expect(firstIsValue(undefined, 'collectionId')).toBeUndefined();
  });

  it('reads list parameters repeated or comma-separated, as Spring binds them', () => {
    expect(listParam(['a,b', ' c ', '', 'd,'])).toEqual(['a', 'b', 'c', 'd']);
  });

  it('ANDs Mihon query parameters and ORs the values of one parameter', () => {
    expect(seriesQueryCondition(query({}))).toBeUndefined();
    expect(seriesQueryCondition(query({ genre: ['Action'] }))).toEqual({ genre: { operator: 'is', value: 'Action' } });
    expect(seriesQueryCondition(query({ library_id: ['l1,l2'], read_status: ['UNREAD'] }))).toEqual({
      allOf: [
        { anyOf: [{ libraryId: { operator: 'is', value: 'l1' } }, { libraryId: { operator: 'is', value: 'l2' } }] },
        { readStatus: { operator: 'is', value: 'unread' } },
      ],
    });
    expect(bookQueryCondition(query({ media_status: ['UNKNOWN'], tag: ['x'] }))).toEqual({
      tag: { operator: 'is', value: 'x' },
    });
  });

  it('translates a Komelia search body', () => {
    const body = {
      allOf: [
        { readStatus: { operator: 'is', value: 'IN_PROGRESS' } },
        { title: { operator: 'beginsWith', value: 'One' } },
      ],
    };
    expect(fromKomgaSearch(body, 'book')).toEqual({
      allOf: [
        { readStatus: { operator: 'is', value: 'in_progress' } },
        { title: { operator: 'beginsWith', value: 'One' } },
      ],
    });
    expect(fromKomgaSearch({ title: { operator: 'contains', value: 'x' } }, 'book')).toEqual({
      title: { operator: 'contains', value: 'x' },
    });
    expect(fromKomgaSearch({ deleted: { operator: 'isFalse' } }, 'book')).toBeUndefined();
    expect(fromKomgaSearch(undefined, 'book')).toBeUndefined();
  });

  it("reads Komga's inclusive numeric bounds, booleans and release dates as Longbox conditions", () => {
    expect(fromKomgaSearch({ ageRating: { operator: 'greaterThan', value: 16 } }, 'series')).toEqual({
      anyOf: [{ ageRating: { operator: 'greaterThan', value: '16' } }, { ageRating: { operator: 'is', value: '16' } }],
    });
    expect(fromKomgaSearch({ ageRating: { operator: 'isNull' } }, 'series')).toEqual({
      ageRating: { operator: 'isNull' },
    });
    expect(fromKomgaSearch({ numberSort: { operator: 'is', value: 2.5 } }, 'book')).toEqual({
      numberSort: { operator: 'is', value: '2.5' },
    });
    expect(fromKomgaSearch({ complete: { operator: 'isFalse' } }, 'series')).toEqual({
      completion: { operator: 'is', value: 'false' },
    });
    expect(fromKomgaSearch({ oneShot: { operator: 'isFalse' } }, 'book')).toBeUndefined();
    // Komelia's year chip for 2020: after 2019-12-31, before 2021-01-01.
    const after = { releaseDate: { operator: 'after', dateTime: '2019-12-31T00:00:00Z' } };
    const before = { releaseDate: { operator: 'before', dateTime: '2021-01-01T00:00:00Z' } };
    expect(fromKomgaSearch(after, 'series')).toEqual({ year: { operator: 'greaterThan', value: '2019' } });
    expect(fromKomgaSearch(before, 'series')).toEqual({ year: { operator: 'lessThan', value: '2021' } });
    expect(fromKomgaSearch(before, 'book')).toEqual({ releaseDate: { operator: 'lessThan', value: '2021-01-01' } });
    const midYear = { releaseDate: { operator: 'before', dateTime: '2021-06-01T12:00:00+02:00[Europe/Paris]' } };
    expect(fromKomgaSearch(midYear, 'series')).toEqual({ year: { operator: 'lessThan', value: '2022' } });
    const lastMonth = fromKomgaSearch({ releaseDate: { operator: 'isInTheLast', duration: 'PT720H' } }, 'book');
    const expected = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    expect(lastMonth).toEqual({ releaseDate: { operator: 'greaterThan', value: expected } });
  });

  it('answers malformed or unsupported search bodies with a 400 naming the place', () => {
    expect(badRequest(() => fromKomgaSearch({ allOf: {} }, 'series'))).toContain('condition.allOf');
    expect(badRequest(() => fromKomgaSearch({ a: 1, b: 2 }, 'series'))).toContain('exactly one key');
    expect(badRequest(() => fromKomgaSearch({ genre: { operator: 'is', value: 'x' } }, 'book'))).toContain('genre');
    expect(badRequest(() => fromKomgaSearch({ tag: { operator: 'matches', value: 'x' } }, 'book'))).toContain(
      'matches',
    );
    expect(badRequest(() => fromKomgaSearch({ ageRating: { operator: 'is', value: 'adult' } }, 'series'))).toContain(
      'condition.ageRating.value',
    );
    expect(badRequest(() => fromKomgaSearch({ ageRating: { operator: 'contains', value: 1 } }, 'series'))).toContain(
      'contains',
    );
    expect(badRequest(() => fromKomgaSearch({ complete: { operator: 'is', value: 'x' } }, 'series'))).toContain(
      'condition.complete',
    );
    expect(
      badRequest(() => fromKomgaSearch({ releaseDate: { operator: 'after', dateTime: 'yesterday' } }, 'book')),
    ).toContain('condition.releaseDate.dateTime');
    expect(
      badRequest(() => fromKomgaSearch({ releaseDate: { operator: 'isInTheLast', duration: '30 days' } }, 'book')),
    ).toContain('condition.releaseDate.duration');
    let deep: unknown = { tag: { operator: 'is', value: 'x' } };
    for (let i = 0; i < 12; i++) deep = { allOf: [deep] };
    expect(badRequest(() => fromKomgaSearch(deep, 'book'))).toContain('nest');
  });

  it('splits author=<name>,<role> at the last comma, the name keeping its own commas', () => {
    expect(authorParams(['Doe, John,Writer', 'Anonymous', ' ,penciller'])).toEqual([
      { name: 'Doe, John', role: 'writer' },
      { name: 'Anonymous' },
    ]);
  });

  it("maps Komga's author roles to the credit fields, and an unfamiliar role to the name in any role", () => {
    expect(authorCondition({ name: 'Ann', role: 'Cover' }, 'is')).toEqual({
      coverArtist: { operator: 'is', value: 'Ann' },
    });
    expect(authorCondition({ name: 'Ann', role: 'nrt' }, 'isNot')).toEqual({
      author: { operator: 'isNot', value: 'Ann' },
    });
    expect(authorCondition({ role: 'inker' }, 'isNot')).toEqual({ inker: { operator: 'isNull' } });
    expect(authorCondition({}, 'is')).toBeUndefined();
    expect(seriesQueryCondition(query({ author: ['Ann,writer', 'Bob'] }))).toEqual({
      anyOf: [{ writer: { operator: 'is', value: 'Ann' } }, { author: { operator: 'is', value: 'Bob' } }],
    });
  });
});
