/**
 * Advanced filtering (API.md §4, DECISIONS.md §Lists): a condition is a leaf
 * `{ <field>: { operator, value } }` or a node `{ allOf: [...] }` / `{ anyOf: [...] }`, nesting. This
 * module walks the client's JSON once, checks every field/operator/value with a precise 400, bounds
 * depth and size, and compiles to a parameterised drizzle `sql` fragment (values are bound, never
 * spliced into the SQL text).
 */
import { and, or, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { badRequest } from '../lib/errors';

export const FILTER_OPERATORS = ['is', 'isNot', 'isNull', 'isNotNull', 'contains', 'beginsWith'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/** Operator sets per kind of field (DECISIONS.md §Lists). */
export const STRING_OPERATORS: readonly FilterOperator[] = FILTER_OPERATORS;
export const ID_OPERATORS: readonly FilterOperator[] = ['is', 'isNot'];
export const ENUM_OPERATORS: readonly FilterOperator[] = ['is', 'isNot'];

export const MAX_CONDITION_DEPTH = 10;
export const MAX_CONDITION_NODES = 64;
/** D1 binds at most 100 parameters per statement; a field test binds up to two. */
export const MAX_CONDITION_LEAVES = 32;

/**
 * A test that holds exactly for the rows whose id is in `ids` (a SELECT of ids, e.g. the books having a
 * genre). `anyOf` over such tests becomes one `id IN (a UNION ALL b)`: a single list SQLite builds once
 * and drives the row lookups from, where `id IN (a) OR id IN (b)` is evaluated branch by branch.
 */
export class IdSet {
  constructor(
    readonly rowId: SQLWrapper,
    readonly ids: SQL,
  ) {}
}

export type FieldTest = SQL | IdSet;

/** The test as a predicate on the row. */
export function asPredicate(test: FieldTest): SQL {
  return test instanceof IdSet ? sql`${test.rowId} IN (${test.ids})` : test;
}

export interface FilterField {
  operators: readonly FilterOperator[];
  /** When set, `value` must be one of these (compared case-insensitively, passed on lower-cased). */
  values?: readonly string[];
  /** What is true for rows where `field operator value` holds; `isNot` is not derived, fields say it. */
  toSql(operator: FilterOperator, value: string | undefined): FieldTest;
  /** Its tests look the row up in other tables (terms, the user's progress) rather than read its columns. */
  readsOtherTables?: boolean;
}

export type FilterFields = Readonly<Record<string, FilterField>>;

const NO_VALUE: ReadonlySet<FilterOperator> = new Set(['isNull', 'isNotNull']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const invalid = (path: string, message: string) =>
  badRequest(`Invalid condition: ${path}: ${message}`, [{ path, message }]);

/**
 * A compiled condition. `narrowsToIds`: every matching row is in an id list the condition names (the
 * condition is such a list, or all of a set of tests one of which is): a query can start from that list
 * and look the rows up, rather than visit every row.
 */
export interface CompiledCondition {
  where: SQL;
  narrowsToIds: boolean;
}

interface Compiled {
  test: FieldTest;
  narrowsToIds: boolean;
  readsOtherTables: boolean;
}

/** Compiles a client condition against the fields of one resource (series or books). */
export function compileCondition(condition: unknown, fields: FilterFields, path = 'condition'): CompiledCondition {
  const budget = { nodes: 0, leaves: 0 };
  const { test, narrowsToIds } = compileNode(condition, fields, path, 1, budget);
  return { where: asPredicate(test), narrowsToIds };
}

/** `anyOf`: one id list when every branch is one (UNION ALL: `IN` drops the duplicates), else OR. */
function anyOf(tests: FieldTest[]): FieldTest {
  const [first] = tests;
  if (first instanceof IdSet && tests.every((test) => test instanceof IdSet)) {
    return new IdSet(
      first.rowId,
      sql.join(
        tests.map((test) => (test as IdSet).ids),
        sql` UNION ALL `,
      ),
    );
  }
  return or(...tests.map(asPredicate)) as SQL;
}

function compileNode(
  node: unknown,
  fields: FilterFields,
  path: string,
  depth: number,
  budget: { nodes: number; leaves: number },
): Compiled {
  if (depth > MAX_CONDITION_DEPTH) throw invalid(path, `nesting is limited to ${MAX_CONDITION_DEPTH} levels`);
  budget.nodes += 1;
  if (budget.nodes > MAX_CONDITION_NODES)
    throw invalid(path, `a condition may hold at most ${MAX_CONDITION_NODES} nodes`);
  if (!isObject(node)) throw invalid(path, 'must be an object');
  const keys = Object.keys(node);
  if (keys.length !== 1) {
    throw invalid(path, 'must have exactly one key: allOf, anyOf, or a field name');
  }
  const key = keys[0] as string;
  if (key === 'allOf' || key === 'anyOf') {
    const children = node[key];
    if (!Array.isArray(children) || children.length === 0) throw invalid(`${path}.${key}`, 'must be a non-empty array');
    const compiled = children.map((child, i) => compileNode(child, fields, `${path}.${key}.${i}`, depth + 1, budget));
    const readsOtherTables = compiled.some((c) => c.readsOtherTables);
    if (key === 'allOf') {
      // SQLite tests a row's conditions in the order written: the row's own columns first, so that
      // lookups in other tables only run for rows those let through.
      const ordered = [...compiled.filter((c) => !c.readsOtherTables), ...compiled.filter((c) => c.readsOtherTables)];
      return {
        test: and(...ordered.map((c) => asPredicate(c.test))) as SQL,
        narrowsToIds: compiled.some((c) => c.narrowsToIds),
        readsOtherTables,
      };
    }
    const test = anyOf(compiled.map((c) => c.test));
    return { test, narrowsToIds: test instanceof IdSet, readsOtherTables };
  }
  budget.leaves += 1;
  if (budget.leaves > MAX_CONDITION_LEAVES) {
    throw invalid(path, `a condition may test at most ${MAX_CONDITION_LEAVES} fields`);
  }
  const field = Object.hasOwn(fields, key) ? fields[key] : undefined;
  const test = compileLeaf(key, node[key], fields, `${path}.${key}`);
  return { test, narrowsToIds: test instanceof IdSet, readsOtherTables: field?.readsOtherTables === true };
}

function compileLeaf(name: string, operand: unknown, fields: FilterFields, path: string): FieldTest {
  const field = Object.hasOwn(fields, name) ? fields[name] : undefined;
  if (!field) throw invalid(path, `unknown field '${name}'; allowed: allOf, anyOf, ${Object.keys(fields).join(', ')}`);
  if (!isObject(operand)) throw invalid(path, 'must be an object {operator, value}');
  const extra = Object.keys(operand).filter((k) => k !== 'operator' && k !== 'value');
  if (extra.length > 0) throw invalid(path, `unknown key(s): ${extra.join(', ')}`);
  const { operator, value } = operand;
  if (typeof operator !== 'string' || !(FILTER_OPERATORS as readonly string[]).includes(operator)) {
    throw invalid(
      `${path}.operator`,
      `unknown operator '${String(operator)}'; operators: ${FILTER_OPERATORS.join(', ')}`,
    );
  }
  const op = operator as FilterOperator;
  if (!field.operators.includes(op)) {
    throw invalid(
      `${path}.operator`,
      `operator '${op}' is not allowed for field '${name}'; allowed: ${field.operators.join(', ')}`,
    );
  }
  if (NO_VALUE.has(op)) {
    if (value !== undefined && value !== null) throw invalid(`${path}.value`, `operator '${op}' takes no value`);
    return field.toSql(op, undefined);
  }
  if (typeof value !== 'string') throw invalid(`${path}.value`, `operator '${op}' needs a string value`);
  if (field.values) {
    const normalized = value.toLowerCase();
    if (!field.values.includes(normalized)) {
      throw invalid(`${path}.value`, `'${value}' is not a value of '${name}'; allowed: ${field.values.join(', ')}`);
    }
    return field.toSql(op, normalized);
  }
  return field.toSql(op, value);
}
