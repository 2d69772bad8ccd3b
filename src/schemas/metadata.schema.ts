/**
 * Editable metadata of series and books under /api/v1 (issue 18; Codex-rs's shapes, docs/clients.md):
 * the full metadata with its locks, the PATCH bodies, the lock bodies and the bulk variants. Every body is
 * strict, so an unknown field (or a lock on a field that does not exist) is a 400 naming it.
 */
import { z } from '@hono/zod-openapi';

const text = (max: number) => z.string().trim().max(max);
const CreditSchema = z
  .strictObject({
    name: text(200).min(1, 'must not be empty'),
    role: text(50)
      .min(1, 'must not be empty')
      .transform((r) => r.toLowerCase()),
  })
  .openapi('Credit');
/**
 * A web link is shown as a link people click: only http and https addresses, never `javascript:` or
 * `data:`, which would run or show a document of their own (DECISIONS.md §Security).
 */
export const WebLinkUrlSchema = z.url({ protocol: /^https?$/, error: 'must be an http or https address' }).max(2000);
const LinkSchema = z.strictObject({ label: text(200), url: WebLinkUrlSchema }).openapi('WebLink');
const AlternateTitleSchema = z
  .strictObject({ label: text(100), title: text(500).min(1, 'must not be empty') })
  .openapi('AlternateTitle');
const terms = z.array(text(200).min(1, 'must not be empty')).max(500);
const int = (min: number, max: number) => z.number().int().min(min).max(max);

/** Series fields a user may edit, each with a lock of the same name. */
const SERIES_FIELDS = {
  title: text(500).min(1, 'must not be empty'),
  titleSort: text(500).min(1, 'must not be empty'),
  summary: text(20_000).nullable(),
  publisher: text(200).nullable(),
  imprint: text(200).nullable(),
  year: int(0, 9999).nullable(),
  language: text(35).nullable(),
  status: z.enum(['ongoing', 'ended', 'hiatus', 'abandoned']).nullable(),
  readingDirection: z.enum(['ltr', 'rtl', 'ttb', 'webtoon']).nullable(),
  totalBookCount: int(0, 100_000).nullable(),
  authors: z.array(CreditSchema).max(500),
  links: z.array(LinkSchema).max(100),
  alternateTitles: z.array(AlternateTitleSchema).max(100),
  genres: terms,
  tags: terms,
};
export const SERIES_EDITABLE_FIELDS = Object.keys(SERIES_FIELDS) as Array<keyof typeof SERIES_FIELDS>;
export type SeriesEditableField = keyof typeof SERIES_FIELDS;

/** Book fields a user may edit, each with a lock of the same name. */
const BOOK_FIELDS = {
  title: text(500).min(1, 'must not be empty'),
  titleSort: text(500).min(1, 'must not be empty'),
  summary: text(20_000).nullable(),
  number: int(-100_000, 100_000).nullable(),
  numberSort: z.number().min(-100_000).max(100_000).nullable(),
  volume: int(0, 100_000).nullable(),
  chapter: z.number().min(0).max(100_000).nullable(),
  year: int(0, 9999).nullable(),
  month: int(1, 12).nullable(),
  day: int(1, 31).nullable(),
  publisher: text(200).nullable(),
  imprint: text(200).nullable(),
  language: text(35).nullable(),
  authors: z.array(CreditSchema).max(500),
  isbn: text(20).nullable(),
  format: text(100).nullable(),
  count: int(0, 100_000).nullable(),
  links: z.array(LinkSchema).max(100),
  genres: terms,
  tags: terms,
  characters: terms,
  teams: terms,
  locations: terms,
};
/**
 * A series' age rating (a minimum age, docs/DECISIONS.md §Enforcement) is edited beside those fields, with a
 * lock of the same name, but decides who sees the series: it is not a plain column edit. Setting it locks
 * it and needs `UsersWrite`; `null` (or turning its lock off) rates the series from its books again.
 */
const AGE_RATING = int(0, 255).nullable().openapi({
  description:
    'Minimum age (ComicInfo AgeRating mapped as Komga does). Setting it locks it and needs UsersWrite; null rates the series from its books (the highest of theirs) and unlocks it',
});

export const BOOK_EDITABLE_FIELDS = Object.keys(BOOK_FIELDS) as Array<keyof typeof BOOK_FIELDS>;
export type BookEditableField = keyof typeof BOOK_FIELDS;

const optionalAll = <T extends Record<string, z.ZodType>>(shape: T) =>
  Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v.optional()])) as {
    [K in keyof T]: z.ZodOptional<T[K]>;
  };
const locksOf = <T extends Record<string, unknown>>(shape: T) =>
  Object.fromEntries(Object.keys(shape).map((k) => [k, z.boolean()])) as { [K in keyof T]: z.ZodBoolean };

const SERIES_LOCKS = { ...locksOf(SERIES_FIELDS), ageRating: z.boolean() };
export const SeriesMetadataLocksSchema = z.object(SERIES_LOCKS).openapi('SeriesMetadataLocks');
export const BookMetadataLocksSchema = z.object(locksOf(BOOK_FIELDS)).openapi('BookMetadataLocks');
export type SeriesMetadataLocks = z.infer<typeof SeriesMetadataLocksSchema>;
export type BookMetadataLocks = z.infer<typeof BookMetadataLocksSchema>;

/** PUT …/metadata/locks: the locks to change (others unchanged); a lock that is turned off brings the file's value back. */
export const SeriesLocksUpdateSchema = z.strictObject(optionalAll(SERIES_LOCKS)).openapi('SeriesMetadataLocksUpdate');
export const BookLocksUpdateSchema = z
  .strictObject(optionalAll(locksOf(BOOK_FIELDS)))
  .openapi('BookMetadataLocksUpdate');
export type SeriesLocksUpdate = z.infer<typeof SeriesLocksUpdateSchema>;
export type BookLocksUpdate = z.infer<typeof BookLocksUpdateSchema>;

/** PATCH …/metadata: the fields to set; each one set is locked (DECISIONS.md §Organise and share). */
export const SeriesMetadataPatchSchema = z
  .strictObject({ ...optionalAll(SERIES_FIELDS), ageRating: AGE_RATING.optional() })
  .openapi('SeriesMetadataPatch');
export const BookMetadataPatchSchema = z.strictObject(optionalAll(BOOK_FIELDS)).openapi('BookMetadataPatch');
export type SeriesMetadataPatch = z.infer<typeof SeriesMetadataPatchSchema>;
/** The plain column fields of a series edit (everything but the age rating). */
export type SeriesFieldsPatch = Omit<SeriesMetadataPatch, 'ageRating'>;
export type BookMetadataPatch = z.infer<typeof BookMetadataPatchSchema>;

const readOnlyTerms = {
  characters: z.array(z.string()).openapi({ description: "The union of the series' books' characters" }),
  teams: z.array(z.string()),
  locations: z.array(z.string()),
};

export const SeriesMetadataSchema = z
  .object({
    seriesId: z.uuid(),
    ...SERIES_FIELDS,
    ageRating: z.number().int().nullable().openapi({
      description: "Minimum age: the highest of the books' ratings unless locked (then as edited); null: unrated",
    }),
    ...readOnlyTerms,
    title: z.string(),
    titleSort: z.string(),
    locks: SeriesMetadataLocksSchema,
    updatedAt: z.string(),
  })
  .openapi('SeriesMetadata');
export type SeriesMetadataDto = z.infer<typeof SeriesMetadataSchema>;

export const BookMetadataSchema = z
  .object({
    bookId: z.uuid(),
    seriesId: z.uuid(),
    ...BOOK_FIELDS,
    title: z.string(),
    titleSort: z.string(),
    locks: BookMetadataLocksSchema,
    updatedAt: z.string(),
  })
  .openapi('BookMetadata');
export type BookMetadataDto = z.infer<typeof BookMetadataSchema>;

const ids = (what: string) =>
  z
    .array(z.uuid('must be a UUID'))
    .min(1)
    .max(500)
    .openapi({ description: `The ${what} to change` });

export const BulkSeriesMetadataPatchSchema = z
  .strictObject({ seriesIds: ids('series'), ...optionalAll(SERIES_FIELDS) })
  .openapi('BulkSeriesMetadataPatch');
export const BulkBookMetadataPatchSchema = z
  .strictObject({ bookIds: ids('books'), ...optionalAll(BOOK_FIELDS) })
  .openapi('BulkBookMetadataPatch');
export const BulkSeriesLocksUpdateSchema = z
  .strictObject({ seriesIds: ids('series'), ...optionalAll(locksOf(SERIES_FIELDS)) })
  .openapi('BulkSeriesMetadataLocksUpdate');
export const BulkBookLocksUpdateSchema = z
  .strictObject({ bookIds: ids('books'), ...optionalAll(locksOf(BOOK_FIELDS)) })
  .openapi('BulkBookMetadataLocksUpdate');

export const BulkMetadataUpdateSchema = z
  .object({ updatedCount: z.number().int(), message: z.string() })
  .openapi('BulkMetadataUpdate');
