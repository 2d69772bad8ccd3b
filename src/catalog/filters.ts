/**
 * Advanced filtering (API.md §4, DECISIONS.md §Lists): a condition is a leaf
 * `{ <field>: { operator, value } }` or a node `{ allOf: [...] }` / `{ anyOf: [...] }`, nesting. This
 * module walks the client's JSON once, checks every field/operator/value with a precise 400 and bounds
 * depth and size; the repositories compile the checked tree to SQL (repositories/catalog-filters.ts,
 * which also says what each field means).
 */
import { badRequest } from '../lib/errors';
import {
  FILTER_OPERATORS,
  type FilterFields,
  type FilterNode,
  type FilterOperator,
} from '../repositories/catalog-filters';

export { FILTER_OPERATORS };

export const MAX_CONDITION_DEPTH = 10;
export const MAX_CONDITION_NODES = 64;
/** D1 binds at most 100 parameters per statement; a field test binds up to two. */
export const MAX_CONDITION_LEAVES = 32;

const NO_VALUE: ReadonlySet<FilterOperator> = new Set(['isNull', 'isNotNull']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const invalid = (path: string, message: string) =>
  badRequest(`Invalid condition: ${path}: ${message}`, [{ path, message }]);

/** Checks a client condition against the fields of one resource (series or books). */
export function parseCondition(condition: unknown, fields: FilterFields, path = 'condition'): FilterNode {
  return parseNode(condition, fields, path, 1, { nodes: 0, leaves: 0 });
}

function parseNode(
  node: unknown,
  fields: FilterFields,
  path: string,
  depth: number,
  budget: { nodes: number; leaves: number },
): FilterNode {
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
    const parsed = children.map((child, i) => parseNode(child, fields, `${path}.${key}.${i}`, depth + 1, budget));
    return key === 'allOf' ? { allOf: parsed } : { anyOf: parsed };
  }
  budget.leaves += 1;
  if (budget.leaves > MAX_CONDITION_LEAVES) {
    throw invalid(path, `a condition may test at most ${MAX_CONDITION_LEAVES} fields`);
  }
  return parseTest(key, node[key], fields, `${path}.${key}`);
}

function parseTest(name: string, operand: unknown, fields: FilterFields, path: string): FilterNode {
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
    return { field: name, operator: op };
  }
  if (field.valueType)
    return { field: name, operator: op, value: typedValue(field.valueType, value, op, `${path}.value`) };
  if (typeof value !== 'string') throw invalid(`${path}.value`, `operator '${op}' needs a string value`);
  if (field.values) {
    const normalized = value.toLowerCase();
    if (!field.values.includes(normalized)) {
      throw invalid(`${path}.value`, `'${value}' is not a value of '${name}'; allowed: ${field.values.join(', ')}`);
    }
    return { field: name, operator: op, value: normalized };
  }
  return { field: name, operator: op, value };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A JSON number, or text that is one (`"16"`, `"2.5"`); NaN for anything else (`""`, `"adult"`, `true`). */
export function numberOf(value: unknown): number {
  if (typeof value === 'number') return value;
  return typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
}

/** A number (as JSON or text) or a YYYY-MM-DD date, passed on as text the field's SQL converts. */
function typedValue(type: 'integer' | 'number' | 'date', value: unknown, op: FilterOperator, path: string): string {
  if (type === 'date') {
    const valid = typeof value === 'string' && DATE.test(value) && !Number.isNaN(Date.parse(value));
    if (!valid) throw invalid(path, `operator '${op}' needs a date (YYYY-MM-DD)`);
    return value;
  }
  const number = numberOf(value);
  if (!Number.isFinite(number) || (type === 'integer' && !Number.isInteger(number))) {
    throw invalid(path, `operator '${op}' needs ${type === 'integer' ? 'an integer' : 'a number'}`);
  }
  return String(number);
}
