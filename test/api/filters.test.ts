/** API.md §4 Advanced filtering (POST /series/list, POST /books/list); DECISIONS.md §Lists. */
import { describe, expect, it } from 'vitest';
import { seedBook, seedLibrary, seedProgress, seedSeries } from '../support/catalog-factory';
import { createUser, login, setupAdmin } from '../support/factories';
import { type Condition, leaf, matching, rejection } from '../support/filter-requests';
import { api, expectError } from '../support/http';

async function seedSeriesCatalog(userId: string) {
  const manga = await seedLibrary({ name: 'Manga' });
  const comics = await seedLibrary({ name: 'Comics' });
  const naruto = await seedSeries(manga, {
    title: 'Naruto',
    publisher: 'Shueisha',
    status: 'ongoing',
    language: 'ja',
    genres: ['Action', 'Adventure'],
    tags: ['ninja'],
  });
  const nana = await seedSeries(manga, {
    title: 'Nana',
    publisher: 'shueisha',
    status: 'hiatus',
    language: null,
    genres: ['Romance'],
  });
  const saga = await seedSeries(comics, {
    title: 'Saga',
    publisher: null,
    status: 'ongoing',
    language: 'en',
    genres: ['Sci-Fi'],
    tags: ['space', 'war'],
  });
  const onePiece = await seedSeries(manga, {
    title: 'One Piece',
    publisher: '',
    status: null,
    language: 'JA',
    tags: ['pirates'],
  });
  const [n1, n2] = [await seedBook(naruto), await seedBook(naruto)];
  const [a1] = [await seedBook(nana), await seedBook(nana)];
  const s1 = await seedBook(saga);
  await seedBook(onePiece);
  // Naruto read, Nana and Saga in progress, One Piece unread.
  await seedProgress(userId, n1.id, { completed: true });
  await seedProgress(userId, n2.id, { completed: true });
  await seedProgress(userId, a1!.id, { completed: true });
  await seedProgress(userId, s1.id, { currentPage: 3 });
  return { manga, comics, naruto, saga };
}

describe('series filter fields × operators (DECISIONS.md §Lists)', () => {
  it('applies every allowed operator of every series field, case-insensitively', async () => {
    const admin = await setupAdmin();
    const { comics } = await seedSeriesCatalog(admin.userId);
    const all = ['Nana', 'Naruto', 'One Piece', 'Saga'];
    const cases: Array<[Condition, string[]]> = [
      [leaf('name', 'is', 'naruto'), ['Naruto']],
      [leaf('name', 'isNot', 'NARUTO'), ['Nana', 'One Piece', 'Saga']],
      [leaf('name', 'contains', 'A'), ['Nana', 'Naruto', 'Saga']],
      [leaf('name', 'beginsWith', 'na'), ['Nana', 'Naruto']],
      [leaf('name', 'isNull'), []],
      [leaf('name', 'isNotNull'), all],
      [leaf('publisher', 'is', 'SHUEISHA'), ['Nana', 'Naruto']],
      [leaf('publisher', 'isNot', 'Shueisha'), ['One Piece', 'Saga']],
      [leaf('publisher', 'contains', 'eis'), ['Nana', 'Naruto']],
      [leaf('publisher', 'beginsWith', 'Shu'), ['Nana', 'Naruto']],
      [leaf('publisher', 'isNull'), ['One Piece', 'Saga']],
      [leaf('publisher', 'isNotNull'), ['Nana', 'Naruto']],
      [leaf('status', 'is', 'Ongoing'), ['Naruto', 'Saga']],
      [leaf('status', 'isNot', 'ongoing'), ['Nana', 'One Piece']],
      [leaf('status', 'contains', 'AT'), ['Nana']],
      [leaf('status', 'beginsWith', 'on'), ['Naruto', 'Saga']],
      [leaf('status', 'isNull'), ['One Piece']],
      [leaf('status', 'isNotNull'), ['Nana', 'Naruto', 'Saga']],
      [leaf('language', 'is', 'ja'), ['Naruto', 'One Piece']],
      [leaf('language', 'isNot', 'ja'), ['Nana', 'Saga']],
      [leaf('language', 'contains', 'N'), ['Saga']],
      [leaf('language', 'beginsWith', 'j'), ['Naruto', 'One Piece']],
      [leaf('language', 'isNull'), ['Nana']],
      [leaf('language', 'isNotNull'), ['Naruto', 'One Piece', 'Saga']],
      [leaf('genre', 'is', 'action'), ['Naruto']],
      [leaf('genre', 'isNot', 'Action'), ['Nana', 'One Piece', 'Saga']],
      [leaf('genre', 'contains', 'RO'), ['Nana']],
      [leaf('genre', 'beginsWith', 'sci'), ['Saga']],
      [leaf('genre', 'isNull'), ['One Piece']],
      [leaf('genre', 'isNotNull'), ['Nana', 'Naruto', 'Saga']],
      [leaf('tag', 'is', 'SPACE'), ['Saga']],
      [leaf('tag', 'isNot', 'space'), ['Nana', 'Naruto', 'One Piece']],
      [leaf('tag', 'contains', 'i'), ['Naruto', 'One Piece']],
      [leaf('tag', 'beginsWith', 'WA'), ['Saga']],
      [leaf('tag', 'isNull'), ['Nana']],
      [leaf('tag', 'isNotNull'), ['Naruto', 'One Piece', 'Saga']],
      [leaf('libraryId', 'is', comics.id), ['Saga']],
      [leaf('libraryId', 'isNot', comics.id), ['Nana', 'Naruto', 'One Piece']],
      [leaf('readStatus', 'is', 'read'), ['Naruto']],
      [leaf('readStatus', 'is', 'in_progress'), ['Nana', 'Saga']],
      [leaf('readStatus', 'is', 'unread'), ['One Piece']],
      [leaf('readStatus', 'isNot', 'read'), ['Nana', 'One Piece', 'Saga']],
    ];
    for (const [condition, expected] of cases) {
      expect(await matching(admin.auth, 'series', { condition }), JSON.stringify(condition)).toEqual(expected);
    }
  });

  it('evaluates readStatus for the requesting user', async () => {
    const admin = await setupAdmin();
    await seedSeriesCatalog(admin.userId);
    const other = await createUser(admin.auth);
    const otherAuth = (await login(other.username, other.password)).auth;
    expect(await matching(otherAuth, 'series', { condition: leaf('readStatus', 'is', 'unread') })).toEqual([
      'Nana',
      'Naruto',
      'One Piece',
      'Saga',
    ]);
    expect(await matching(otherAuth, 'series', { condition: leaf('readStatus', 'is', 'read') })).toEqual([]);
  });

  it('nests allOf and anyOf, and combines with fullTextSearch', async () => {
    const admin = await setupAdmin();
    await seedSeriesCatalog(admin.userId);
    const nested = {
      allOf: [
        { anyOf: [leaf('genre', 'is', 'Action'), leaf('genre', 'is', 'Romance'), leaf('tag', 'is', 'war')] },
        { anyOf: [leaf('publisher', 'is', 'shueisha'), leaf('language', 'is', 'en')] },
        leaf('readStatus', 'isNot', 'read'),
      ],
    };
    expect(await matching(admin.auth, 'series', { condition: nested })).toEqual(['Nana', 'Saga']);
    const either = {
      anyOf: [{ allOf: [leaf('name', 'beginsWith', 'n'), leaf('status', 'is', 'hiatus')] }, leaf('name', 'is', 'saga')],
    };
    expect(await matching(admin.auth, 'series', { condition: either })).toEqual(['Nana', 'Saga']);
    expect(await matching(admin.auth, 'series', { fullTextSearch: 'na' })).toEqual(['Nana', 'Naruto']);
    expect(
      await matching(admin.auth, 'series', { fullTextSearch: 'na', condition: leaf('readStatus', 'is', 'read') }),
    ).toEqual(['Naruto']);
    // snake_case twin of the body field, an empty body and no body at all.
    expect(await matching(admin.auth, 'series', { full_text_search: 'saga' })).toEqual(['Saga']);
    expect(await matching(admin.auth, 'series', {})).toHaveLength(4);
    const noBody = await api('/series/list', { method: 'POST', auth: admin.auth });
    expect(noBody.body.total).toBe(4);
  });
});

describe('book filter fields × operators (DECISIONS.md §Lists)', () => {
  it('applies every allowed operator of every book field', async () => {
    const admin = await setupAdmin();
    const manga = await seedLibrary();
    const comics = await seedLibrary();
    const naruto = await seedSeries(manga, { title: 'Naruto' });
    const saga = await seedSeries(comics, { title: 'Saga' });
    const b1 = await seedBook(naruto, { title: 'Naruto 1', genres: ['Action'], tags: ['ninja'] });
    const b2 = await seedBook(naruto, { title: 'Naruto 2', analysisError: 'corrupt archive' });
    await seedBook(saga, { title: 'Saga 1', genres: ['Sci-Fi'], tags: ['space'] });
    await seedBook(saga, { title: '50% Off', tags: ['sale'], analysisError: 'no pages' });
    await seedBook(saga, { title: '5_0' });
    await seedProgress(admin.userId, b1.id, { completed: true });
    await seedProgress(admin.userId, b2.id, { currentPage: 4 });

    const all = ['50% Off', '5_0', 'Naruto 1', 'Naruto 2', 'Saga 1'];
    const cases: Array<[Condition, string[]]> = [
      [leaf('title', 'is', 'NARUTO 1'), ['Naruto 1']],
      [leaf('title', 'isNot', 'naruto 1'), ['50% Off', '5_0', 'Naruto 2', 'Saga 1']],
      [leaf('title', 'contains', '%'), ['50% Off']],
      [leaf('title', 'contains', '_'), ['5_0']],
      [leaf('title', 'beginsWith', 'naruto'), ['Naruto 1', 'Naruto 2']],
      [leaf('title', 'isNull'), []],
      [leaf('title', 'isNotNull'), all],
      [leaf('genre', 'is', 'action'), ['Naruto 1']],
      [leaf('genre', 'isNot', 'action'), ['50% Off', '5_0', 'Naruto 2', 'Saga 1']],
      [leaf('genre', 'contains', 'FI'), ['Saga 1']],
      [leaf('genre', 'beginsWith', 'act'), ['Naruto 1']],
      [leaf('genre', 'isNull'), ['50% Off', '5_0', 'Naruto 2']],
      [leaf('genre', 'isNotNull'), ['Naruto 1', 'Saga 1']],
      [leaf('tag', 'is', 'Space'), ['Saga 1']],
      [leaf('tag', 'isNot', 'space'), ['50% Off', '5_0', 'Naruto 1', 'Naruto 2']],
      [leaf('tag', 'contains', 'S'), ['50% Off', 'Saga 1']],
      [leaf('tag', 'beginsWith', 'NIN'), ['Naruto 1']],
      [leaf('tag', 'isNull'), ['5_0', 'Naruto 2']],
      [leaf('tag', 'isNotNull'), ['50% Off', 'Naruto 1', 'Saga 1']],
      [leaf('seriesId', 'is', naruto.id), ['Naruto 1', 'Naruto 2']],
      [leaf('seriesId', 'isNot', naruto.id), ['50% Off', '5_0', 'Saga 1']],
      [leaf('libraryId', 'is', comics.id), ['50% Off', '5_0', 'Saga 1']],
      [leaf('libraryId', 'isNot', comics.id), ['Naruto 1', 'Naruto 2']],
      [leaf('readStatus', 'is', 'read'), ['Naruto 1']],
      [leaf('readStatus', 'is', 'IN_PROGRESS'), ['Naruto 2']],
      [leaf('readStatus', 'is', 'unread'), ['50% Off', '5_0', 'Saga 1']],
      [leaf('readStatus', 'isNot', 'unread'), ['Naruto 1', 'Naruto 2']],
      [leaf('hasError', 'is', 'true'), ['50% Off', 'Naruto 2']],
      [leaf('hasError', 'is', 'false'), ['5_0', 'Naruto 1', 'Saga 1']],
      [leaf('hasError', 'isNot', 'true'), ['5_0', 'Naruto 1', 'Saga 1']],
      [leaf('hasError', 'isNot', 'false'), ['50% Off', 'Naruto 2']],
    ];
    for (const [condition, expected] of cases) {
      expect(await matching(admin.auth, 'books', { condition }), JSON.stringify(condition)).toEqual(expected);
    }
    const nested = {
      anyOf: [
        { allOf: [leaf('seriesId', 'is', saga.id), leaf('hasError', 'is', 'true')] },
        leaf('readStatus', 'is', 'read'),
      ],
    };
    expect(await matching(admin.auth, 'books', { condition: nested })).toEqual(['50% Off', 'Naruto 1']);
    expect(
      await matching(admin.auth, 'books', { fullTextSearch: 'naru', condition: leaf('hasError', 'is', 'true') }),
    ).toEqual(['Naruto 2']);
  });
});

describe('invalid conditions are 400s that name the problem (DECISIONS.md §Lists)', () => {
  it('rejects operators a field does not take, naming field and operator', async () => {
    const admin = await setupAdmin();
    const rejected: Array<['series' | 'books', Condition, string[]]> = [
      ['series', leaf('libraryId', 'contains', 'x'), ["'contains'", "'libraryId'", 'is, isNot']],
      ['series', leaf('readStatus', 'beginsWith', 'r'), ["'beginsWith'", "'readStatus'"]],
      ['series', leaf('libraryId', 'isNull'), ["'isNull'", "'libraryId'"]],
      ['books', leaf('seriesId', 'isNotNull'), ["'isNotNull'", "'seriesId'"]],
      ['books', leaf('hasError', 'contains', 'true'), ["'contains'", "'hasError'"]],
      ['books', leaf('readStatus', 'isNull'), ["'isNull'", "'readStatus'"]],
    ];
    for (const [resource, condition, fragments] of rejected) {
      const error = await rejection(admin.auth, resource, condition);
      for (const fragment of fragments) expect(error.message, JSON.stringify(condition)).toContain(fragment);
      expect(error.details?.[0]?.path).toMatch(/^condition\./);
    }
  });

  it('rejects unknown fields and operators, bad values and malformed nodes', async () => {
    const admin = await setupAdmin();
    const bad: Array<['series' | 'books', unknown, string]> = [
      ['series', leaf('title', 'is', 'x'), "unknown field 'title'"],
      ['books', leaf('name', 'is', 'x'), "unknown field 'name'"],
      ['series', leaf('name', 'like', 'x'), "unknown operator 'like'"],
      ['series', leaf('readStatus', 'is', 'finished'), "'finished' is not a value of 'readStatus'"],
      ['books', leaf('hasError', 'is', 'yes'), "'yes' is not a value of 'hasError'"],
      ['series', leaf('name', 'isNull', 'x'), "operator 'isNull' takes no value"],
      ['series', leaf('name', 'is'), "operator 'is' needs a string value"],
      ['series', { name: { operator: 'is', value: 3 } }, 'needs a string value'],
      ['series', { name: { operator: 'is', value: 'x', extra: 1 } }, 'unknown key(s): extra'],
      ['series', { name: 'Naruto' }, 'must be an object'],
      ['series', { allOf: [] }, 'non-empty array'],
      ['series', { anyOf: leaf('name', 'is', 'x') }, 'non-empty array'],
      ['series', { allOf: [leaf('name', 'is', 'x')], anyOf: [leaf('name', 'is', 'y')] }, 'exactly one key'],
      ['series', {}, 'exactly one key'],
      ['series', { allOf: ['name'] }, 'must be an object'],
    ];
    for (const [resource, condition, fragment] of bad) {
      const error = await rejection(admin.auth, resource, condition);
      expect(error.message, JSON.stringify(condition)).toContain(fragment);
    }
    expectError(await api('/series/list', { auth: admin.auth, json: { condition: [] } }), 400, 'BadRequest');
    expectError(await api('/series/list', { auth: admin.auth, json: { filter: {} } }), 400, 'BadRequest');
  });

  it('bounds nesting depth, field tests and node count', async () => {
    const admin = await setupAdmin();
    await seedSeries(await seedLibrary(), { title: 'Deep' });
    const nest = (levels: number): Condition =>
      levels === 1 ? leaf('name', 'is', 'Deep') : { allOf: [nest(levels - 1)] };
    expect(await matching(admin.auth, 'series', { condition: nest(10) })).toEqual(['Deep']);
    const deep = expectError(
      await api('/series/list', { auth: admin.auth, json: { condition: nest(11) } }),
      400,
      'BadRequest',
    );
    expect(deep.message).toContain('10 levels');
    const hugelyDeep = expectError(
      await api('/series/list', { auth: admin.auth, json: { condition: nest(5000) } }),
      400,
      'BadRequest',
    );
    expect(hugelyDeep.message).toContain('10 levels');

    const leaves = (n: number) => Array.from({ length: n }, () => leaf('name', 'isNot', 'x'));
    expect(await matching(admin.auth, 'series', { condition: { allOf: leaves(32) } })).toEqual(['Deep']);
    const wide = expectError(
      await api('/series/list', { auth: admin.auth, json: { condition: { allOf: leaves(33) } } }),
      400,
      'BadRequest',
    );
    expect(wide.message).toContain('at most 32');
    const wrapped = { allOf: leaves(32).map((l) => ({ allOf: [l] })) };
    const many = expectError(
      await api('/series/list', { auth: admin.auth, json: { condition: wrapped } }),
      400,
      'BadRequest',
    );
    expect(many.message).toContain('at most 64 nodes');
  });

  it('treats values as data: quotes and SQL text match literally', async () => {
    const admin = await setupAdmin();
    await seedSeries(await seedLibrary(), { title: 'Bob\'s "Quoted" Tales' });
    expect(await matching(admin.auth, 'series', { condition: leaf('name', 'contains', 'b\'s "quoted') })).toEqual([
      'Bob\'s "Quoted" Tales',
    ]);
    expect(await matching(admin.auth, 'series', { condition: leaf('name', 'is', "x' OR '1'='1") })).toEqual([]);
    expect(await matching(admin.auth, 'series', { condition: leaf('genre', 'is', "') OR 1=1 --") })).toEqual([]);
  });
});
