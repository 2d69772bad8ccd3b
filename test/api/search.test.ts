/** API.md §4 Series (POST /series/search) and Advanced filtering (fullTextSearch); DECISIONS.md §Lists. */
import { describe, expect, it } from 'vitest';
import { seedBook, seedLibrary, seedSeries, softDeleteSeries } from '../support/catalog-factory';
import { setupAdmin } from '../support/factories';
import { api, expectError } from '../support/http';

const titles = (body: { data: Array<{ title: string }> }) => body.data.map((s) => s.title);

describe('series search (DECISIONS.md §Lists: prefix- and diacritic-insensitive, ranked)', () => {
  it('finds by prefix and ignores accents and case on both sides', async () => {
    const admin = await setupAdmin();
    const library = await seedLibrary();
    await seedSeries(library, { title: 'Pokémon Adventures' });
    await seedSeries(library, { title: 'POKEMON Journeys' });
    await seedSeries(library, { title: 'Poker Face' });
    await seedSeries(library, { title: 'Naruto' });

    for (const query of ['poke', 'Poké', 'POKÉMON', 'pokemon']) {
      const res = await api('/series/search', { auth: admin.auth, json: { query } });
      expect(res.status, query).toBe(200);
      const expected =
        query.length > 4
          ? ['POKEMON Journeys', 'Pokémon Adventures']
          : ['POKEMON Journeys', 'Poker Face', 'Pokémon Adventures'];
      expect(titles(res.body).sort(), query).toEqual(expected);
    }
    const twoTerms = await api('/series/search', { auth: admin.auth, json: { query: 'pokémon adv' } });
    expect(titles(twoTerms.body)).toEqual(['Pokémon Adventures']);
  });

  it('ranks title matches above author and summary matches, and pages the ranking', async () => {
    const admin = await setupAdmin();
    const library = await seedLibrary();
    await seedSeries(library, { title: 'Quiet Days', summary: 'A story about a dragon and a village.' });
    await seedSeries(library, { title: 'Dragon Ball' });
    await seedSeries(library, { title: 'Sky Tales', authors: ['Dragonetti'] });
    await seedSeries(library, { title: 'Unrelated', summary: 'Cooking.' });

    const ranked = await api('/series/search', { auth: admin.auth, json: { query: 'dragon' } });
    expect(titles(ranked.body)).toEqual(['Dragon Ball', 'Sky Tales', 'Quiet Days']);
    expect(ranked.body).toMatchObject({ total: 3, totalPages: 1 });
    const second = await api('/series/search?pageSize=1&page=2', { auth: admin.auth, json: { query: 'dragon' } });
    expect(titles(second.body)).toEqual(['Sky Tales']);
    expect(second.body).toMatchObject({ page: 2, pageSize: 1, total: 3, totalPages: 3 });
    expect(second.body.links.next).toBe('/api/v1/series/search?pageSize=1&page=3');
  });

  it('scopes by libraryId (either spelling) and never returns deleted series', async () => {
    const admin = await setupAdmin();
    const manga = await seedLibrary();
    const comics = await seedLibrary();
    await seedSeries(manga, { title: 'Berserk' });
    await seedSeries(comics, { title: 'Berserker Tales' });
    const gone = await seedSeries(manga, { title: 'Berserk Deluxe' });
    await softDeleteSeries(gone.id);

    expect(titles((await api('/series/search', { auth: admin.auth, json: { query: 'berserk' } })).body).sort()).toEqual(
      ['Berserk', 'Berserker Tales'],
    );
    const camel = await api('/series/search', { auth: admin.auth, json: { query: 'berserk', libraryId: comics.id } });
    expect(titles(camel.body)).toEqual(['Berserker Tales']);
    const snake = await api('/series/search', { auth: admin.auth, json: { query: 'berserk', library_id: manga.id } });
    expect(titles(snake.body)).toEqual(['Berserk']);
  });

  it('treats FTS syntax in the query as plain text', async () => {
    const admin = await setupAdmin();
    const library = await seedLibrary();
    await seedSeries(library, { title: 'Ghost in the Shell' });
    const attempts = [
      '"',
      'ghost"',
      'ghost OR x',
      'NEAR(ghost shell)',
      'title:ghost',
      '-ghost',
      'ghost*',
      '*',
      '^gho',
      'AND',
      "gh'ost",
      '(ghost',
    ];
    for (const query of attempts) {
      const res = await api('/series/search', { auth: admin.auth, json: { query } });
      expect(res.status, query).toBe(200);
    }
    const syntax = async (query: string) =>
      titles((await api('/series/search', { auth: admin.auth, json: { query } })).body);
    expect(await syntax('title:ghost')).toEqual([]);
    expect(await syntax('NEAR(ghost shell)')).toEqual([]);
    expect(await syntax('(ghost')).toEqual(['Ghost in the Shell']);
    expect(await syntax('"ghost"')).toEqual(['Ghost in the Shell']);
    expect(await syntax('!!!')).toEqual([]);
  });

  it('rejects a blank or missing query', async () => {
    const admin = await setupAdmin();
    expectError(await api('/series/search', { auth: admin.auth, json: { query: '   ' } }), 400, 'BadRequest');
    expectError(await api('/series/search', { auth: admin.auth, json: {} }), 400, 'BadRequest');
    expectError(
      await api('/series/search', { auth: admin.auth, json: { query: 'x', libraryId: 'nope' } }),
      400,
      'BadRequest',
    );
  });
});

describe('fullTextSearch on book lists (API.md §4 Advanced filtering)', () => {
  it('matches book titles and their series title, best match first unless a sort is given', async () => {
    const admin = await setupAdmin();
    const library = await seedLibrary();
    const pokemon = await seedSeries(library, { title: 'Pokémon Adventures' });
    const other = await seedSeries(library, { title: 'Other' });
    await seedBook(pokemon, { title: 'Volume 1' });
    await seedBook(other, { title: 'Pokédex Guide' });
    await seedBook(other, { title: 'Cooking', summary: 'Recipes for a pokemon party' });

    const found = await api('/books/list', { auth: admin.auth, json: { fullTextSearch: 'poke' } });
    expect(titles(found.body)).toEqual(['Pokédex Guide', 'Volume 1', 'Cooking']);
    const sorted = await api('/books/list?sort=title', { auth: admin.auth, json: { fullTextSearch: 'poke' } });
    expect(titles(sorted.body)).toEqual(['Cooking', 'Pokédex Guide', 'Volume 1']);
    const blank = await api('/books/list', { auth: admin.auth, json: { fullTextSearch: '  ' } });
    expect(blank.body.total).toBe(3);
    const nothing = await api('/books/list', { auth: admin.auth, json: { fullTextSearch: '¿?' } });
    expect(nothing.body.total).toBe(0);
  });
});
