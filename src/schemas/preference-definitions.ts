/**
 * The per-user preferences clients can rely on (API.md §4 User preferences, DECISIONS.md §Settings and
 * preferences): each documented key's value schema and default, and the limits on free-form keys. Below the
 * wire schemas (preferences.schema.ts) and the service that stores them, so a type import of the schema needs
 * nothing else.
 */
import { z } from '@hono/zod-openapi';

/** Codex's limit on a preference key. */
export const MAX_PREFERENCE_KEY_LENGTH = 255;
/** A free-form value's JSON text, in bytes. */
export const MAX_PREFERENCE_VALUE_BYTES = 16 * 1024;
/** Free-form keys one user may store (a bound on what one account can put in the database). */
export const MAX_FREE_FORM_PREFERENCES = 500;
export const PREFERENCE_KEY_PATTERN = /^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+)*$/;

interface PreferenceDefinition<T> {
  schema: z.ZodType<T>;
  default: T;
}

const define = <T>(schema: z.ZodType<T>, value: T): PreferenceDefinition<T> => ({ schema, default: value });

export const PREFERENCE_DEFINITIONS = {
  theme: define(z.enum(['system', 'light', 'dark']), 'system'),
  /** A BCP 47 language tag such as `en`, `pt-BR` or `zh-Hant-TW`. */
  language: define(
    z.string().regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'must be a language tag such as en or pt-BR'),
    'en',
  ),
  /** null: follow the series' own reading direction. */
  'reader.direction_override': define(z.enum(['ltr', 'rtl', 'ttb', 'webtoon']).nullable(), null),
  'reader.fit': define(z.enum(['width', 'height', 'original']), 'width'),
  'reader.double_page': define(z.boolean(), false),
  /** DECISIONS.md §Reader apps: pages fetched through OPDS page streaming advance progress; false for apps that prefetch whole books. */
  'opds.pse_progress': define(z.boolean(), true),
  /** DECISIONS.md §Reading statistics: false pauses recording reading sessions (reading-sessions.repository.ts reads it in SQL). */
  'stats.recording': define(z.boolean(), true),
  /**
   * DECISIONS.md §Kobo e-readers: the collections and read lists a Kobo syncs (their books, as shelves); null:
   * every book the user sees, with every read list and collection as a shelf. Read inside the sync's statement
   * (src/repositories/kobo-sync.repository.ts KOBO_SHELVES_PREFERENCE names the same key).
   */
  'kobo.shelves': define(
    z
      .object({
        collectionIds: z.array(z.string().uuid()).max(500).default([]),
        readListIds: z.array(z.string().uuid()).max(500).default([]),
      })
      .nullable(),
    null,
  ),
} satisfies Record<string, PreferenceDefinition<unknown>>;

export type PreferenceKey = keyof typeof PREFERENCE_DEFINITIONS;
/** The documented keys with their effective values, and every free-form key the user stored. */
export type Preferences = { [K in PreferenceKey]: (typeof PREFERENCE_DEFINITIONS)[K]['default'] } & Record<
  string,
  unknown
>;
export const PREFERENCE_KEYS = Object.keys(PREFERENCE_DEFINITIONS) as PreferenceKey[];
