/**
 * Komga's filters in Longbox's condition grammar (src/catalog/filters.ts), so the API's own list
 * queries do the work: the query parameters Mihon sends (`library_id`, `read_status`, `status`, `genre`,
 * `tag`, `publisher`, `media_status`, `author`) and Komga's other `GET /series` ones (`age_rating`, `release_year`,
 * `sharing_label`, `complete`, `oneshot`), and the JSON search bodies of `POST /series/list` and
 * `POST /books/list` that Komelia sends (komga-client `search/KomgaSearchCondition.kt`).
 *
 * Komga values are mapped explicitly: read statuses UNREAD/IN_PROGRESS/READ → unread/in_progress/read;
 * a Komga series status → the free-text statuses Longbox keeps that mean it (ONGOING also matching
 * series without one, as Komga defaults to ONGOING); media status READY/ERROR → the analysis error flag.
 */
import { MAX_CONDITION_DEPTH, numberOf } from '../catalog/filters';
import { badRequest } from '../lib/errors';
import { AUTHOR_ROLE_FIELDS } from '../repositories/catalog-filters';
import { PROFILES, STATUS_VALUES } from './komga.mappers';

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

/**
 * Komga's `mediaProfile` (DIVINA, PDF, EPUB): the books whose format has that profile, as its DTOs show it
 * (komga.mappers.ts PROFILES); `isNot` keeps the others.
 */
export function mediaProfileCondition(value: string, operator: 'is' | 'isNot', path = 'mediaProfile'): Condition {
  const formats = Object.entries(PROFILES)
    .filter(([, profile]) => profile === value.toUpperCase())
    .map(([format]) => format);
  if (formats.length === 0) {
    const profiles = [...new Set(Object.values(PROFILES))].join(', ');
    throw badRequest(`${path}.value: unknown media profile '${value}'; use ${profiles}`);
  }
  const tests = formats.map((format) => leaf('fileFormat', operator, format));
  return (operator === 'is' ? anyOf(tests) : allOf(tests)) as Condition;
}

/** Komga's author roles (ComicInfo's, lower-cased) → Longbox's filter field for a credit in that role. */
const ROLE_FIELDS: Record<string, string> = Object.fromEntries(
  Object.entries(AUTHOR_ROLE_FIELDS).map(([field, role]) => [role, field]),
);

export interface AuthorMatch {
  name?: string;
  role?: string;
}

/**
 * Komga's `author` condition (`SearchCondition.AuthorMatch`): `is` = credited with that name in that role,
 * `isNot` = not; a missing name means anyone in the role, a missing role any role, neither no condition
 * (Komga's `noCondition`). Names and roles compare ignoring case, as Komga's do. A role Longbox has no filter
 * field for (an EPUB's uncommon relator) cannot be told apart: the name is matched in any role.
 */
export function authorCondition({ name, role }: AuthorMatch, operator: 'is' | 'isNot'): Condition | undefined {
  const roleField = role ? ROLE_FIELDS[role.toLowerCase()] : undefined;
  if (name) return leaf(roleField ?? 'author', operator, name);
  if (!roleField) return undefined;
  return leaf(roleField, operator === 'is' ? 'isNotNull' : 'isNull');
}

/** Mihon's `author=<name>,<role>` parameters: series (or books) credited to any of them. */
const authorParamsCondition = (values: string[]): Condition | undefined =>
  anyOf(
    authorParams(values)
      .map((author) => authorCondition(author, 'is'))
      .filter((c): c is Condition => c !== undefined),
  );

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
    authorParamsCondition(query('author')),
    ...seriesMetadataParams(query),
  ]);
}

/**
 * Komga's metadata parameters of `GET /series` (its SeriesController): `age_rating` (a number, anything
 * else meaning "no rating"), `release_year` (years that are not numbers are dropped), `sharing_label`,
 * and the booleans `complete` and `oneshot`.
 */
function seriesMetadataParams(query: (name: string) => string[]): Array<Condition | undefined> {
  const flag = (name: string): boolean | undefined => {
    const value = query(name)[0]?.trim().toLowerCase();
    if (value === undefined) return undefined;
    if (value !== 'true' && value !== 'false') throw badRequest(`${name} must be true or false`);
    return value === 'true';
  };
  const complete = flag('complete');
  const oneshot = flag('oneshot');
  return [
    anyOf(
      listParam(query('age_rating')).map((rating) =>
        Number.isInteger(numberOf(rating))
          ? leaf('ageRating', 'is', String(numberOf(rating)))
          : leaf('ageRating', 'isNull'),
      ),
    ),
    anyOf(
      listParam(query('release_year'))
        .filter((year) => Number.isInteger(numberOf(year)))
        .map((year) => leaf('year', 'is', String(numberOf(year)))),
    ),
    anyOf(listParam(query('sharing_label')).map((label) => leaf('sharingTag', 'is', label))),
    complete === undefined ? undefined : leaf('completion', 'is', String(complete)),
    oneshot ? NOTHING : undefined,
  ];
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
    authorParamsCondition(query('author')),
  ]);
}

// ---- Komga search bodies ----------------------------------------------------------------------------

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const STRING_OPERATORS: Record<string, string> = {
  is: 'is',
  isNot: 'isNot',
  contains: 'contains',
  beginsWith: 'beginsWith',
};

/** A condition no row meets (no library has the nil id). */
const NOTHING = leaf('libraryId', 'is', '00000000-0000-0000-0000-000000000000');

/** Komga's SearchOperator.Boolean as Longbox's `"true"`/`"false"` values. */
function booleanOperator(operator: string, path: string): 'true' | 'false' {
  if (operator === 'isTrue') return 'true';
  if (operator === 'isFalse') return 'false';
  throw badRequest(`${path}: operator must be isTrue or isFalse`);
}

/**
 * Komga's Numeric (numberSort) and NumericNullable (ageRating) operators. Komga's `greaterThan` and
 * `lessThan` include the value itself (SearchOperatorUtils: greaterOrEqual, lessOrEqual); Longbox's are
 * strict, so each becomes "than or equal". Values arrive as JSON numbers (Komelia) or numeric text.
 */
function numericCondition(field: 'ageRating' | 'numberSort', operator: string, raw: unknown, path: string): Condition {
  // ageRating: Komga's NumericNullable<Int>; numberSort: Numeric<Float>.
  const nullable = field === 'ageRating';
  if (nullable && (operator === 'isNull' || operator === 'isNotNull')) return leaf(field, operator);
  if (!['is', 'isNot', 'greaterThan', 'lessThan'].includes(operator)) {
    const allowed = nullable
      ? 'is, isNot, greaterThan, lessThan, isNull or isNotNull'
      : 'is, isNot, greaterThan or lessThan';
    throw badRequest(`${path}: operator '${operator}' is not supported; use ${allowed}`);
  }
  const number = numberOf(raw);
  if (!Number.isFinite(number) || (nullable && !Number.isInteger(number))) {
    throw badRequest(`${path}.value must be ${nullable ? 'an integer' : 'a number'}`);
  }
  const value = String(number);
  if (operator === 'is' || operator === 'isNot') return leaf(field, operator, value);
  return anyOf([leaf(field, operator, value), leaf(field, 'is', value)]) as Condition;
}

const DAY_MS = 86_400_000;

/** An ISO-8601 duration as java.time.Duration and kotlin.time.Duration write it (`P30D`, `PT720H`), in ms. */
function durationMs(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const match = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?)?$/.exec(text);
  if (!match || text === 'P' || text.endsWith('T')) return undefined;
  const [, days = '0', hours = '0', minutes = '0', seconds = '0'] = match;
  return ((Number(days) * 24 + Number(hours)) * 60 + Number(minutes)) * 60_000 + Number(seconds) * 1000;
}

/**
 * Komga's Date operators on a release date: `before`/`after` a date-time (compared as its UTC date),
 * `isInTheLast`/`isNotInTheLast` a duration (whole days back from today, UTC), `isNull`/`isNotNull`.
 * A book's date is its own; a series' is its year's first day (what Komga shows as its booksMetadata
 * releaseDate), so a bound on a series becomes one on its year.
 */
function releaseDateCondition(kind: 'series' | 'book', operand: Record<string, unknown>, path: string): Condition {
  const operator = operand.operator;
  const field = kind === 'series' ? 'year' : 'releaseDate';
  if (operator === 'isNull' || operator === 'isNotNull') return leaf(field, operator);
  let bound: string;
  let direction: 'lessThan' | 'greaterThan';
  if (operator === 'before' || operator === 'after') {
    const text = typeof operand.dateTime === 'string' ? operand.dateTime.replace(/\[[^\]]*\]$/, '') : '';
    const instant = Date.parse(text);
    if (Number.isNaN(instant)) throw badRequest(`${path}.dateTime must be a date-time (ISO 8601)`);
    bound = new Date(instant).toISOString().slice(0, 10);
    direction = operator === 'before' ? 'lessThan' : 'greaterThan';
  } else if (operator === 'isInTheLast' || operator === 'isNotInTheLast') {
    const ms = durationMs(operand.duration);
    if (ms === undefined) throw badRequest(`${path}.duration must be an ISO 8601 duration (P30D, PT720H)`);
    const days = Math.floor(ms / DAY_MS);
    bound = new Date(Date.now() - days * DAY_MS).toISOString().slice(0, 10);
    direction = operator === 'isInTheLast' ? 'greaterThan' : 'lessThan';
  } else {
    throw badRequest(
      `${path}: operator '${String(operator)}' is not supported; use before, after, isInTheLast, isNotInTheLast, isNull or isNotNull`,
    );
  }
  if (!/^\d{4}-\d{2}-\d{2}$/.test(bound)) throw badRequest(`${path}: the date is out of range (years 0000 to 9999)`);
  if (kind === 'book') return leaf(field, direction, bound);
  // YYYY-01-01 > bound ⇔ YYYY > bound's year; YYYY-01-01 < bound ⇔ YYYY < bound's year, or equal to it
  // when the bound is later in that year.
  const year = Number(bound.slice(0, 4));
  if (direction === 'greaterThan') return leaf(field, direction, String(year));
  return leaf(field, direction, String(bound.endsWith('-01-01') ? year : year + 1));
}

const POSTER_TYPES = ['GENERATED', 'SIDECAR', 'USER_UPLOADED'];

/** Which books a poster test holds for: every one, none, or a test of their uploaded covers. */
type PosterMatch = 'every' | 'none' | { operator: 'is' | 'isNot'; value: 'any' | 'selected' | 'unselected' };

/**
 * Komga's `poster` `is {type?, selected?}`: the book has a thumbnail of that type and selection. A
 * Longbox book's thumbnails are its generated cover (always there, selected while no uploaded cover is)
 * and its uploaded covers (USER_UPLOADED); it has no sidecar ones.
 */
function posterMatch(type: string | null, selected: boolean | null): PosterMatch {
  if (type === 'SIDECAR') return 'none';
  if (type === 'USER_UPLOADED') {
    return { operator: 'is', value: selected === null ? 'any' : selected ? 'selected' : 'unselected' };
  }
  if (type === 'GENERATED')
    return selected === null ? 'every' : { operator: selected ? 'isNot' : 'is', value: 'selected' };
  // Any type: some thumbnail is always selected; one is not exactly when the book has an uploaded cover.
  return selected ? 'every' : { operator: 'is', value: 'any' };
}

/** Komga's `poster` condition; `isNot` is its negation, and neither key set tests nothing (as in Komga). */
function posterCondition(operator: 'is' | 'isNot', raw: unknown, path: string): Condition | undefined {
  if (!isObject(raw)) throw badRequest(`${path} must be an object {type, selected}`);
  const type = raw.type ?? null;
  const selected = raw.selected ?? null;
  if (type !== null && !POSTER_TYPES.includes(type as string)) {
    throw badRequest(`${path}.type must be one of ${POSTER_TYPES.join(', ')}`);
  }
  if (selected !== null && typeof selected !== 'boolean') throw badRequest(`${path}.selected must be a boolean`);
  if (type === null && selected === null) return undefined;
  let match = posterMatch(type as string | null, selected);
  if (operator === 'isNot') {
    match =
      match === 'every'
        ? 'none'
        : match === 'none'
          ? 'every'
          : { operator: match.operator === 'is' ? 'isNot' : 'is', value: match.value };
  }
  if (match === 'every') return undefined;
  return match === 'none' ? NOTHING : leaf('customCover', match.operator, match.value);
}

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
  // komga-client (Komelia, Komf) adds its kotlinx discriminator `"type"` (`AllOfBook`, `SeriesId`…) beside the
  // real key; Komga ignores it, and so does Longbox (docs/clients.md). It is the only key set aside.
  const keys = Object.keys(node).filter((k) => k !== 'type');
  if (keys.length !== 1) throw badRequest(`${path} must have exactly one key besides type`);
  const key = keys[0] as string;
  const operand = node[key];
  if (key === 'allOf' || key === 'anyOf') {
    if (!Array.isArray(operand)) throw badRequest(`${path}.${key} must be an array`);
    const children = operand
      .map((child: unknown, i: number) => fromKomgaSearch(child, kind, `${path}.${key}.${i}`, depth + 1))
      .filter((c): c is Condition => c !== undefined);
    return key === 'allOf' ? allOf(children) : anyOf(children);
  }
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
      if (operator === 'isTrue') return NOTHING;
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
    case 'mediaProfile':
      if (kind !== 'book') break;
      return mediaProfileCondition(needValue(), idOperator(), `${path}.${key}`);
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
    case 'collectionId':
      if (kind !== 'series') break;
      return leaf('collectionId', idOperator(), needValue());
    case 'readListId':
      if (kind !== 'book') break;
      return leaf('readListId', idOperator(), needValue());
    case 'author':
      return authorCondition(authorMatch(operand.value, `${path}.author.value`), idOperator());
    case 'titleSort':
      if (kind !== 'series') break;
      return leaf('titleSort', stringOperator(), needValue());
    case 'isbn':
      if (kind !== 'book') break;
      return leaf('isbn', stringOperator(), needValue());
    case 'ageRating':
      if (kind !== 'series') break;
      return numericCondition('ageRating', operator, operand.value, `${path}.${key}`);
    case 'numberSort':
      if (kind !== 'book') break;
      return numericCondition('numberSort', operator, operand.value, `${path}.${key}`);
    case 'sharingLabel':
      if (kind !== 'series') break;
      // Komga's EqualityNullable: a label is had or not, or the series has none or some.
      if (operator === 'isNull' || operator === 'isNotNull') return leaf('sharingTag', operator);
      if (operator !== 'is' && operator !== 'isNot') {
        throw badRequest(`${path}.${key}: operator '${operator}' is not supported; use is, isNot, isNull or isNotNull`);
      }
      return leaf('sharingTag', operator, needValue());
    case 'complete':
      if (kind !== 'series') break;
      return leaf('completion', 'is', booleanOperator(operator, `${path}.${key}`));
    case 'oneShot':
      // Longbox has no one-shots (every Komga DTO says oneshot false; docs/DECISIONS.md): none is one.
      return booleanOperator(operator, `${path}.${key}`) === 'true' ? NOTHING : undefined;
    case 'releaseDate':
      return releaseDateCondition(kind, operand, `${path}.${key}`);
    case 'poster':
      if (kind !== 'book') break;
      return posterCondition(idOperator(), operand.value, `${path}.${key}.value`);
  }
  throw badRequest(`${path}: unknown ${kind} condition '${key}'`);
}

/** The `{name?, role?}` of an author condition (komga-client sends nulls for what it leaves out). */
function authorMatch(value: unknown, path: string): AuthorMatch {
  if (!isObject(value)) throw badRequest(`${path} must be an object {name, role}`);
  const text = (key: 'name' | 'role') => {
    const v = value[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') throw badRequest(`${path}.${key} must be a string`);
    return v.trim() || undefined;
  };
  return { name: text('name'), role: text('role') };
}

/**
 * The condition with each leaf replaced by what `replace` makes of it (`{field: operand}` in, a condition or
 * undefined (no test) out): for the leaves only the database can resolve, such as a smart collection's id.
 */
export async function replaceLeaves(
  node: Condition | undefined,
  replace: (field: string, operand: unknown) => Promise<Condition | undefined>,
): Promise<Condition | undefined> {
  if (node === undefined) return undefined;
  for (const group of ['allOf', 'anyOf'] as const) {
    const children = node[group];
    if (Array.isArray(children)) {
      const replaced = await Promise.all(children.map((child: Condition) => replaceLeaves(child, replace)));
      const present = replaced.filter((c): c is Condition => c !== undefined);
      return group === 'allOf' ? allOf(present) : anyOf(present);
    }
  }
  const [field] = Object.keys(node);
  return field === undefined ? node : replace(field, node[field]);
}

/**
 * The value of the first `{field: {operator: 'is', value}}` leaf, depth first: the collection or read list whose
 * order Komga's `collection.number`/`readList.number` sorts follow (its DAOs take the first such join).
 */
export function firstIsValue(node: Condition | undefined, field: string): string | undefined {
  if (node === undefined) return undefined;
  for (const group of ['allOf', 'anyOf'] as const) {
    const children = node[group];
    if (Array.isArray(children)) {
      for (const child of children as Condition[]) {
        const found = firstIsValue(child, field);
        if (found !== undefined) return found;
      }
      return undefined;
    }
  }
  const operand = node[field] as { operator?: unknown; value?: unknown } | undefined;
  return operand?.operator === 'is' && typeof operand.value === 'string' ? operand.value : undefined;
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
