/**
 * Komga's own OpenAPI document (komga/docs/openapi.json, the Readium part vendored in test/vendor/komga/ with
 * Komga's MIT licence) applied to a `/komga` answer: which keys must be there and what their values may be.
 *
 * The document is generated from Komga's Kotlin DTOs (springdoc): a non-null property is `required`, and no
 * property is nullable. What Komga then writes is decided by Jackson's `@JsonInclude` on each DTO, which the
 * document does not say, so it is stated here from the DTOs (gotson/komga `interfaces/api/dto/WepPub.kt`,
 * `domain/model/R2Locator.kt`, `interfaces/api/rest/dto/R2Positions.kt`, `domain/model/R2Progression.kt`):
 * - `NON_NULL` (WPPublicationDto) and none (R2Positions, R2Progression, R2Device): every required key is
 *   written, empty lists too;
 * - `NON_EMPTY` (WPLinkDto, WPMetadataDto, WPBelongsToDto, WPContributorDto, R2Locator and its Location and
 *   Text): a key whose value is an empty list or map is left out, so a required key of array or object type
 *   may be missing; a required string, number or boolean may not.
 * No Readium DTO of Komga ever writes `null`, so a null value is a departure too.
 */
import vendored from '../vendor/komga/openapi-readium.json';

interface Schema {
  $ref?: string;
  type?: string;
  required?: string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  enum?: unknown[];
}

const SCHEMAS = vendored.components.schemas as Record<string, Schema>;

/** Komga's DTOs annotated `@JsonInclude(NON_EMPTY)`, by their OpenAPI name. */
const NON_EMPTY = new Set([
  'WPLinkDto',
  'WPMetadataDto',
  'WPBelongsToDto',
  'WPContributorDto',
  'R2Locator',
  'Location',
  'Text',
]);

/** The schema a Readium operation answers with (its 200 `application/json` response). */
export function responseSchemaOf(path: string): string {
  const operation = (vendored.paths as Record<string, { get: { responses: Record<string, any> } }>)[path];
  const ref = operation?.get.responses['200']?.content?.['application/json']?.schema?.$ref as string | undefined;
  if (!ref) throw new Error(`no 200 response schema for GET ${path} in Komga's document`);
  return ref.replace('#/components/schemas/', '');
}

const typeOf = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;

function typeFits(expected: string | undefined, value: unknown): boolean {
  if (!expected) return true;
  const actual = typeOf(value);
  if (expected === 'number') return actual === 'number' || actual === 'integer';
  return expected === actual;
}

/**
 * Where `value` departs from schema `name` of Komga's document, as `path: problem` lines (empty when it
 * conforms): a required key missing (beyond what NON_EMPTY lets Komga omit), a value of another type, a null.
 */
export function komgaDepartures(name: string, value: unknown, path = '$'): string[] {
  return check({ $ref: `#/components/schemas/${name}` }, value, path);
}

function check(schema: Schema, value: unknown, path: string, owner?: string): string[] {
  if (schema.$ref) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    const target = SCHEMAS[name];
    if (!target) throw new Error(`Komga's document has no schema ${name}`);
    return check(target, value, path, name);
  }
  if (value === null) return [`${path}: null (Komga never writes null here)`];
  if (!typeFits(schema.type ?? (schema.properties ? 'object' : undefined), value)) {
    return [`${path}: ${typeOf(value)}, not ${schema.type}`];
  }
  if (Array.isArray(value))
    return value.flatMap((item, i) => (schema.items ? check(schema.items, item, `${path}[${i}]`) : []));
  if (typeof value !== 'object') return [];
  const object = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of schema.required ?? []) {
    if (key in object) continue;
    const property = schema.properties?.[key];
    const collection = property?.type === 'array' || property?.type === 'object';
    if (!(owner && NON_EMPTY.has(owner) && collection)) problems.push(`${path}.${key}: missing`);
  }
  for (const [key, member] of Object.entries(object)) {
    const property = schema.properties?.[key];
    if (property) problems.push(...check(property, member, `${path}.${key}`));
    else if (typeof schema.additionalProperties === 'object')
      problems.push(...check(schema.additionalProperties, member, `${path}.${key}`));
  }
  return problems;
}
