/**
 * Typed values sent as strings (DECISIONS.md §Settings and preferences): Codex's API and its clients
 * send `"true"`, `"25"` or `"0.5"` where the value is a boolean or a number. A value the schema
 * accepts as it is stays as it is; otherwise a string that spells a scalar is converted and tried
 * again. Anything else fails with the schema's own issues.
 */
import type { z } from '@hono/zod-openapi';

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** The scalar a string spells (`"true"` → true, `"25"` → 25, `"null"` → null), or undefined. */
function scalarOf(text: string): { value: boolean | number | null } | undefined {
  const trimmed = text.trim();
  if (/^(true|false)$/i.test(trimmed)) return { value: trimmed.toLowerCase() === 'true' };
  if (/^null$/i.test(trimmed)) return { value: null };
  if (NUMBER.test(trimmed)) {
    const number = Number(trimmed);
    if (Number.isFinite(number)) return { value: number };
  }
  return undefined;
}

export function parseTypedValue<T>(schema: z.ZodType<T>, value: unknown): z.ZodSafeParseResult<T> {
  const direct = schema.safeParse(value);
  if (direct.success || typeof value !== 'string') return direct;
  const scalar = scalarOf(value);
  if (!scalar) return direct;
  const converted = schema.safeParse(scalar.value);
  return converted.success ? converted : direct;
}
