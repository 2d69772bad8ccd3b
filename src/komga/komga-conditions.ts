/**
 * Komga's filters in Longbox's condition grammar (src/catalog/filters.ts), so the API's own list
 * queries do the work: the query parameters Mihon sends (`library_id`, `read_status`, `status`, `genre`,
 * `tag`, `publisher`, `media_status`) and the JSON search bodies of `POST /series/list` and
 * `POST /books/list` that Komelia sends (komga-client `search/KomgaSearchCondition.kt`).
 *
 * Komga values are mapped explicitly: read statuses UNREAD/IN_PROGRESS/READ → unread/in_progress/read;
 * a Komga series status → the free-text statuses Longbox keeps that mean it (ONGOING also matching
 * series without one, as Komga defaults to ONGOING); media status READY/ERROR → the analysis error flag.
 */
import { MAX_CONDITION_DEPTH } from '../catalog/filters';
import { badRequest } from '../lib/errors';
import { STATUS_VALUES } from './komga.mappers';

export type Condition = { [key: string]: unknown };

const leaf = (field: string, operator: string, value?: string): Condition => ({
  [field]: value === undefined ? { operator } : { operator, value },
});

export const anyOf = (conditions: Condition[]): Condition | undefined =>
  conditions.length === 0 ? undefined : conditions.length === 1 ? conditions[0] : { anyOf: conditions };

export const allOf = (conditions: Array<Condition | undefined>): Condition | undefined => {
  const present = conditions.filter((c): c is Condition => c !== undefined);
  return present.length === 0 ? undefined : present.length === 1 ? present[0] : { allOf: present };
};

const READ_STATUS: Record<string, string> = { UNREAD: 'unread', IN_PROGRESS: 'in_progress', READ: 'read' };

export function readStatusLeaf(value: string, operator = 'is'): Condition {
  const mapped = READ_STATUS[value.toUpperCase()];
  if (!mapped) throw badRequest(`Unknown read status '${value}'; use UNREAD, IN_PROGRESS or READ`);
  return leaf('readStatus', operator, mapped);
}

export function seriesStatusCondition(value: string, negate = false): Condition {
  const key = value.toUpperCase() as keyof typeof STATUS_VALUES;
  const values = STATUS_VALUES[key];
  if (!values) throw badRequest(`Unknown series status '${value}'; use ENDED, ONGOING, ABANDONED or HIATUS`);
  const tests = values.map((v) => leaf('status', 'is', v));
  if (key === 'ONGOING') tests.push(leaf('status', 'isNull'));
  if (!negate) return anyOf(tests) as Condition;
  return allOf(values.map((v) => leaf('status', 'isNot', v))) as Condition;
}

export function mediaStatusLeaf(value: string, operator = 'is'): Condition | undefined {
  const upper = value.toUpperCase();
  const hasError = upper === 'ERROR' || upper === 'UNSUPPORTED' ? 'true' : upper === 'READY' ? 'false' : undefined;
  if (hasError === undefined) {
    if (['UNKNOWN', 'OUTDATED'].includes(upper)) return undefined;
    throw badRequest(`Unknown media status '${value}'`);
  }
  return leaf('hasError', operator, hasError);
}

/** A comma list or repeated parameter, as Spring binds `List<String>` query parameters. */
export const listParam = (values: string[]): string[] =>
  values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);

/** The query-parameter filters of `GET /series` (Mihon's browse and filter sheet). */
export function seriesQueryCondition(query: (name: string) => string[]): Condition | undefined {
  return allOf([
    anyOf(listParam(query('library_id')).map((id) => leaf('libraryId', 'is', id))),
    anyOf(listParam(query('read_status')).map((s) => readStatusLeaf(s))),
    anyOf(listParam(query('status')).map((s) => seriesStatusCondition(s))),
    anyOf(listParam(query('genre')).map((g) => leaf('genre', 'is', g))),
    anyOf(listParam(query('tag')).map((t) => leaf('tag', 'is', t))),
    anyOf(listParam(query('publisher')).map((p) => leaf('publisher', 'is', p))),
    anyOf(listParam(query('language')).map((l) => leaf('language', 'is', l))),
  ]);
}

/** The query-parameter filters of `GET /books` and `GET /series/{id}/books`. */
export function bookQueryCondition(query: (name: string) => string[]): Condition | undefined {
  return allOf([
    anyOf(listParam(query('library_id')).map((id) => leaf('libraryId', 'is', id))),
    anyOf(listParam(query('read_status')).map((s) => readStatusLeaf(s))),
    anyOf(listParam(query('tag')).map((t) => leaf('tag', 'is', t))),
    anyOf(
      listParam(query('media_status'))
        .map((s) => mediaStatusLeaf(s))
        .filter((c): c is Condition => c !== undefined),
    ),
  ]);
}

// ---- Komga search bodies ----------------------------------------------------------------------------

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Komga condition fields Longbox cannot test (no such data); they do not narrow the list. */
const IGNORED_FIELDS = new Set([
  'releaseDate',
  'numberSort',
  'author',
  'oneShot',
  'complete',
  'sharingLabel',
  'ageRating',
  'collectionId',
  'readListId',
  'poster',
  'isbn',
  'titleSort',
]);

const STRING_OPERATORS: Record<string, string> = {
  is: 'is',
  isNot: 'isNot',
  contains: 'contains',
  beginsWith: 'beginsWith',
};

/**
 * A Komga search condition (`{"allOf":[{"readStatus":{"operator":"is","value":"IN_PROGRESS"}}]}`) as a
 * Longbox condition for series (`kind` series) or books. Fields Longbox has no data for are left out;
 * malformed conditions and operators it cannot honour are 400s rather than silently wrong lists.
 */
export function fromKomgaSearch(
  node: unknown,
  kind: 'series' | 'book',
  path = 'condition',
  depth = 1,
): Condition | undefined {
  if (node === undefined || node === null) return undefined;
  if (depth > MAX_CONDITION_DEPTH) throw badRequest(`${path}: conditions nest at most ${MAX_CONDITION_DEPTH} levels`);
  if (!isObject(node)) throw badRequest(`${path} must be an object`);
  // komga-client (Komf, Komelia) tags every condition with its kotlinx `type` discriminator; Komga ignores it.
  const keys = Object.keys(node).filter((k) => k !== 'type');
  if (keys.length !== 1) throw badRequest(`${path} must have exactly one key`);
  const key = keys[0] as string;
  const operand = node[key];
  if (key === 'allOf' || key === 'anyOf') {
    if (!Array.isArray(operand)) throw badRequest(`${path}.${key} must be an array`);
    const children = operand
      .map((child: unknown, i: number) => fromKomgaSearch(child, kind, `${path}.${key}.${i}`, depth + 1))
      .filter((c): c is Condition => c !== undefined);
    return key === 'allOf' ? allOf(children) : anyOf(children);
  }
  if (IGNORED_FIELDS.has(key)) return undefined;
  if (!isObject(operand) || typeof operand.operator !== 'string') {
    throw badRequest(`${path}.${key} must be an object {operator, value}`);
  }
  const operator = operand.operator;
  const value = typeof operand.value === 'string' ? operand.value : undefined;
  const needValue = (): string => {
    if (value === undefined) throw badRequest(`${path}.${key}.value must be a string`);
    return value;
  };
  const idOperator = () => {
    if (operator !== 'is' && operator !== 'isNot') {
      throw badRequest(`${path}.${key}: operator '${operator}' is not supported; use is or isNot`);
    }
    return operator;
  };
  const stringOperator = () => {
    const mapped = STRING_OPERATORS[operator];
    if (!mapped) {
      throw badRequest(
        `${path}.${key}: operator '${operator}' is not supported; use ${Object.keys(STRING_OPERATORS).join(', ')}`,
      );
    }
    return mapped;
  };
  switch (key) {
    case 'deleted':
      // Lists hold live entities only: isFalse is always true, isTrue never.
      if (operator === 'isFalse') return undefined;
      if (operator === 'isTrue') return leaf('libraryId', 'is', '00000000-0000-0000-0000-000000000000');
      throw badRequest(`${path}.deleted: operator must be isTrue or isFalse`);
    case 'libraryId':
      return leaf('libraryId', idOperator(), needValue());
    case 'readStatus':
      return readStatusLeaf(needValue(), idOperator());
    case 'seriesId':
      if (kind !== 'book') break;
      return leaf('seriesId', idOperator(), needValue());
    case 'mediaStatus':
      if (kind !== 'book') break;
      return mediaStatusLeaf(needValue(), idOperator());
    case 'seriesStatus':
      if (kind !== 'series') break;
      return seriesStatusCondition(needValue(), idOperator() === 'isNot');
    case 'title':
      return leaf(kind === 'series' ? 'name' : 'title', stringOperator(), needValue());
    case 'tag':
      return leaf('tag', stringOperator(), needValue());
    case 'genre':
    case 'publisher':
    case 'language':
      if (kind !== 'series') break;
      return leaf(key, stringOperator(), needValue());
  }
  throw badRequest(`${path}: unknown ${kind} condition '${key}'`);
}

/** `author=<name>,<role>` (repeatable; the name may hold commas, the role is after the last one). */
export function authorParams(values: string[]): Array<{ name: string; role?: string }> {
  return values.flatMap((value) => {
    const comma = value.lastIndexOf(',');
    const name = (comma < 0 ? value : value.slice(0, comma)).trim();
    const role =
      comma < 0
        ? ''
        : value
            .slice(comma + 1)
            .trim()
            .toLowerCase();
    return name ? [role ? { name, role } : { name }] : [];
  });
}
