import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import { AppError } from '../lib/errors';
import {
  BOOK_FILTER_FIELDS,
  compileFilter,
  type FilterNode,
  SERIES_FILTER_FIELDS,
} from '../repositories/catalog-filters';
import { viewerOf, WHOLE_CATALOG_ACCESS } from '../repositories/visibility';
import { MAX_CONDITION_DEPTH, MAX_CONDITION_LEAVES, parseCondition } from './filters';

const viewer = viewerOf({ user: { id: 'user-1' }, access: WHOLE_CATALOG_ACCESS });
const dialect = new SQLiteSyncDialect();
const compiled = (node: FilterNode, fields = BOOK_FILTER_FIELDS) => {
  const { where, narrowsToIds } = compileFilter(node, fields, viewer);
  return { ...dialect.sqlToQuery(where), narrowsToIds };
};

/** The 400 a condition gets: its message and the path of the first detail. */
const rejection = (condition: unknown, fields = SERIES_FILTER_FIELDS) => {
  try {
    parseCondition(condition, fields);
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    const appError = error as AppError;
    expect(appError.status).toBe(400);
    return { message: appError.message, path: appError.details?.[0]?.path };
  }
  throw new Error('expected a 400');
};

const nest = (levels: number): unknown => {
  let node: unknown = { name: { operator: 'is', value: 'x' } };
  for (let i = 1; i < levels; i++) node = { allOf: [node] };
  return node;
};

describe('filter conditions (API.md §4 Advanced filtering, DECISIONS.md §Lists)', () => {
  it('checks a condition into a tree, lower-casing values of fields with a fixed set', () => {
    expect(
      parseCondition(
        {
          anyOf: [
            { readStatus: { operator: 'is', value: 'IN_PROGRESS' } },
            { genre: { operator: 'isNull' } },
            { name: { operator: 'contains', value: 'Dragon' } },
          ],
        },
        SERIES_FILTER_FIELDS,
      ),
    ).toEqual({
      anyOf: [
        { field: 'readStatus', operator: 'is', value: 'in_progress' },
        { field: 'genre', operator: 'isNull' },
        { field: 'name', operator: 'contains', value: 'Dragon' },
      ],
    });
  });

  it('answers each mistake with a 400 naming its path', () => {
    expect(rejection({ colour: { operator: 'is', value: 'red' } })).toMatchObject({
      path: 'condition.colour',
      message: expect.stringContaining("unknown field 'colour'"),
    });
    expect(rejection({ allOf: [{ name: { operator: 'like', value: 'x' } }] }).path).toBe(
      'condition.allOf.0.name.operator',
    );
    expect(rejection({ libraryId: { operator: 'contains', value: 'x' } }).message).toContain('not allowed');
    expect(rejection({ readStatus: { operator: 'is', value: 'skimmed' } }).path).toBe('condition.readStatus.value');
    expect(rejection({ name: { operator: 'isNull', value: 'x' } }).message).toContain('takes no value');
    expect(rejection({ name: { operator: 'is' } }).message).toContain('needs a string value');
    expect(rejection({ anyOf: [] }).path).toBe('condition.anyOf');
    expect(rejection({ name: { operator: 'is', value: 'a' }, tag: { operator: 'is', value: 'b' } }).message).toContain(
      'exactly one key',
    );
    expect(rejection([]).message).toContain('must be an object');
  });

  it('bounds depth and size before walking further', () => {
    expect(() => parseCondition(nest(MAX_CONDITION_DEPTH), SERIES_FILTER_FIELDS)).not.toThrow();
    expect(rejection(nest(MAX_CONDITION_DEPTH + 1)).message).toContain(`${MAX_CONDITION_DEPTH} levels`);
    const leaves = Array.from({ length: MAX_CONDITION_LEAVES + 1 }, () => ({ name: { operator: 'is', value: 'x' } }));
    expect(rejection({ anyOf: leaves }).message).toContain(`${MAX_CONDITION_LEAVES} fields`);
  });

  it('binds every value as a parameter, never as SQL text', () => {
    const hostile = "x' OR 1=1; DROP TABLE books; --";
    const query = compiled({ field: 'title', operator: 'is', value: hostile });
    expect(query.sql).not.toContain('DROP');
    expect(query.params).toEqual([hostile]);
    const like = compiled({ field: 'title', operator: 'contains', value: '50%_off\\' });
    expect(like.params).toEqual(['%50\\%\\_off\\\\%']);
  });

  it('ORs term lists into one id list, and knows when a condition narrows a query to id lists', () => {
    const terms = compiled({
      anyOf: [
        { field: 'genre', operator: 'is', value: 'fantasy' },
        { field: 'tag', operator: 'is', value: 'classic' },
      ],
    });
    expect(terms.sql).toContain('UNION ALL');
    expect(terms.sql.match(/ IN \(/g)?.length).toBe(1);
    expect(terms.narrowsToIds).toBe(true);
    const mixed = compiled({
      anyOf: [
        { field: 'genre', operator: 'is', value: 'fantasy' },
        { field: 'title', operator: 'beginsWith', value: 'A' },
      ],
    });
    expect(mixed.sql).toContain(' or ');
    expect(mixed.narrowsToIds).toBe(false);
    expect(
      compiled({
        allOf: [
          { field: 'title', operator: 'beginsWith', value: 'A' },
          { field: 'tag', operator: 'is', value: 'classic' },
        ],
      }).narrowsToIds,
    ).toBe(true);
  });

  it('tests the row’s own columns before lookups in other tables', () => {
    const { sql } = compiled({
      allOf: [
        { field: 'readStatus', operator: 'is', value: 'read' },
        { field: 'title', operator: 'is', value: 'A' },
      ],
    });
    expect(sql.indexOf('"books"."title"')).toBeLessThan(sql.indexOf('read_progress'));
  });

  it('reads the viewer’s own progress for readStatus', () => {
    const { params } = compiled({ field: 'readStatus', operator: 'is', value: 'unread' }, SERIES_FILTER_FIELDS);
    expect(params).toContain('user-1');
  });
});
