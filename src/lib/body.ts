/**
 * Request bodies accept both the documented field name and its camelCase/snake_case twin
 * (DECISIONS.md §Names): `expires_at` and `expiresAt` both reach the schema's own name. `aliases` adds
 * other names a client family sends for a field (Codex-rs's `completed` for `is_completed`).
 */
import { z } from '@hono/zod-openapi';

const toCamel = (key: string) => key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
const toSnake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export function acceptTwins<T extends z.ZodObject>(schema: T, aliases: Record<string, keyof T['shape']> = {}) {
  const canonical = new Map<string, string>();
  for (const key of Object.keys(schema.shape)) {
    canonical.set(key, key);
    canonical.set(toCamel(key), key);
    canonical.set(toSnake(key), key);
  }
  for (const [alias, key] of Object.entries(aliases)) canonical.set(alias, key as string);
  return z.preprocess((input) => {
    if (!input || typeof input !== 'object' || Array.isArray(input)) return input;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(input)) {
      const target = canonical.get(key) ?? key;
      // The documented spelling wins when a client sends both.
      if (target in out && key !== target) continue;
      out[target] = value;
    }
    return out;
  }, schema);
}
