/**
 * Collections, read lists and want-to-read (docs/DECISIONS.md §Organise and share, §Collections and read
 * lists): Codex-rs's shapes, every list in the paginated envelope. Bodies accept each field's
 * camelCase/snake_case twin (DECISIONS.md §Names).
 */
import { z } from '@hono/zod-openapi';
import { acceptTwins } from '../lib/body';
import { GetPageQuerySchema, pageEnvelopeSchema } from '../lib/pagination';
import { BookSchema } from './book.schema';
import { ConditionSchema } from './filter.schema';
import { SeriesSchema } from './series.schema';

const Name = z.string().trim().min(1, 'must not be empty').max(200);
const Summary = z.string().max(10_000);
/** A body's id list: at most one page of ids a client could have loaded, every one a UUID. */
const Ids = (what: string) =>
  z
    .array(z.uuid('must be a UUID'))
    .max(10_000)
    .openapi({ description: `${what} ids; naming one twice is refused (400), an unknown or hidden one too` });

/**
 * A list's response (its id and name, `fields`, then when it was made and changed) and its page envelope:
 * collections and read lists answer the same frame.
 */
function listResponse<Fields extends z.ZodRawShape>(name: 'Collection' | 'ReadList', fields: Fields) {
  const schema = z
    .object({ id: z.uuid(), name: z.string(), ...fields, createdAt: z.string(), updatedAt: z.string() })
    .openapi(name);
  return [schema, pageEnvelopeSchema(schema, `${name}Page`)] as const;
}

// ---- collections ------------------------------------------------------------------------------------------

export const SMART_TARGETS = ['series', 'books'] as const;

const smartFields = {
  condition: ConditionSchema.nullable()
    .optional()
    .openapi({
      description:
        'A smart collection: the condition of `POST /series/list` (or `/books/list` with target `books`), ' +
        'evaluated for each reader on every read. null makes it a plain collection again.',
    }),
  target: z
    .enum(SMART_TARGETS)
    .optional()
    .openapi({ description: 'What a smart collection lists: series (default) or books' }),
  fullTextSearch: z
    .string()
    .max(500)
    .nullable()
    .optional()
    .openapi({ description: 'A smart collection’s search terms' }),
  sort: z
    .string()
    .max(100)
    .nullable()
    .optional()
    .openapi({ description: 'A smart collection’s order: `<field>,<asc|desc>` of its list’s sort fields' }),
  pinnedToHome: z.boolean().optional().openapi({ description: 'Shown as a row on every reader’s home screen' }),
};

export const [CollectionSchema, CollectionPageSchema] = listResponse('Collection', {
  summary: z.string().nullable(),
  ordered: z.boolean().openapi({ description: 'Members in the order given, else by name' }),
  automatic: z.boolean().openapi({ description: 'A smart collection (members chosen by `condition`)' }),
  condition: z.record(z.string(), z.unknown()).nullable(),
  target: z.enum(SMART_TARGETS),
  fullTextSearch: z.string().nullable(),
  sort: z.string().nullable(),
  pinnedToHome: z.boolean(),
  seriesCount: z
    .number()
    .int()
    .nullable()
    .openapi({ description: 'Series the requesting user may see; null for a smart collection' }),
  filtered: z.boolean().openapi({ description: 'Some members are hidden from the requesting user' }),
});
export type CollectionDto = z.infer<typeof CollectionSchema>;

export const CreateCollectionBodySchema = acceptTwins(
  z.strictObject({
    name: Name,
    summary: Summary.nullable().optional(),
    ordered: z.boolean().optional(),
    seriesIds: Ids('Series').optional(),
    ...smartFields,
  }),
).openapi('CreateCollectionRequest');
export type CreateCollectionBody = z.infer<typeof CreateCollectionBodySchema>;

export const UpdateCollectionBodySchema = acceptTwins(
  z.strictObject({
    name: Name.optional(),
    summary: Summary.nullable().optional(),
    ordered: z.boolean().optional(),
    ...smartFields,
  }),
).openapi('UpdateCollectionRequest');
export type UpdateCollectionBody = z.infer<typeof UpdateCollectionBodySchema>;

export const SeriesIdsBodySchema = acceptTwins(z.strictObject({ seriesIds: Ids('Series') })).openapi(
  'CollectionSeriesRequest',
);

export const CollectionListQuerySchema = GetPageQuerySchema.extend({
  library_id: z
    .uuid('must be a UUID')
    .optional()
    .openapi({ param: { name: 'library_id', in: 'query' }, description: 'Only lists holding a series of it' }),
  search: z
    .string()
    .max(200)
    .optional()
    .openapi({ param: { name: 'search', in: 'query' }, description: 'Name contains' }),
  pinned: z
    .enum(['true', 'false'])
    .optional()
    .openapi({ param: { name: 'pinned', in: 'query' }, description: 'Only collections pinned to home' }),
});

export const CollectionMemberParamsSchema = z.object({
  id: z.uuid('must be a UUID').openapi({ param: { name: 'id', in: 'path' } }),
  seriesId: z.uuid('must be a UUID').openapi({ param: { name: 'seriesId', in: 'path' } }),
});

// ---- read lists -------------------------------------------------------------------------------------------

export const [ReadListSchema, ReadListPageSchema] = listResponse('ReadList', {
  summary: z.string(),
  ordered: z.boolean().openapi({ description: 'Books in the order given, else by release' }),
  bookCount: z.number().int().openapi({ description: 'Books the requesting user may see' }),
  filtered: z.boolean().openapi({ description: 'Some books are hidden from the requesting user' }),
});
export type ReadListDto = z.infer<typeof ReadListSchema>;

export const CreateReadListBodySchema = acceptTwins(
  z.strictObject({
    name: Name,
    summary: Summary.optional(),
    ordered: z.boolean().optional(),
    bookIds: Ids('Book').optional(),
  }),
).openapi('CreateReadListRequest');
export type CreateReadListBody = z.infer<typeof CreateReadListBodySchema>;

export const UpdateReadListBodySchema = acceptTwins(
  z.strictObject({ name: Name.optional(), summary: Summary.optional(), ordered: z.boolean().optional() }),
).openapi('UpdateReadListRequest');
export type UpdateReadListBody = z.infer<typeof UpdateReadListBodySchema>;

export const BookIdsBodySchema = acceptTwins(z.strictObject({ bookIds: Ids('Book') })).openapi('ReadListBooksRequest');

export const ReadListListQuerySchema = CollectionListQuerySchema.omit({ pinned: true });

export const ReadListMemberParamsSchema = z.object({
  id: z.uuid('must be a UUID').openapi({ param: { name: 'id', in: 'path' } }),
  bookId: z.uuid('must be a UUID').openapi({ param: { name: 'bookId', in: 'path' } }),
});

export const CblImportQuerySchema = z.object({
  dryRun: z
    .enum(['true', 'false'])
    .optional()
    .openapi({ param: { name: 'dryRun', in: 'query' }, description: 'Report the matches and write nothing' }),
});

export const CblImportReportSchema = z
  .object({
    name: z.string().openapi({ description: 'The reading list’s Name' }),
    dryRun: z.boolean(),
    readListId: z
      .uuid()
      .nullable()
      .openapi({ description: 'The list created or updated; null on a dry run or when nothing matched' }),
    created: z.boolean(),
    updated: z.boolean().openapi({ description: 'A read list of that name existed: its books were replaced' }),
    matched: z.number().int(),
    unmatched: z.number().int(),
    entries: z.array(
      z.object({
        index: z.number().int().openapi({ description: 'Position of the entry in the file, from 0' }),
        series: z.string(),
        number: z.string(),
        volume: z.number().int().nullable(),
        year: z.number().int().nullable(),
        matched: z.boolean(),
        bookId: z.uuid().nullable(),
        seriesId: z.uuid().nullable(),
        title: z.string().nullable().openapi({ description: 'The matched book’s title' }),
        alsoMatched: z.number().int().openapi({ description: 'Other books that fitted as well (the first was taken)' }),
        duplicate: z.boolean().openapi({ description: 'The book is already earlier in the list; it is listed once' }),
      }),
    ),
  })
  .openapi('CblImportReport');
export type CblImportReport = z.infer<typeof CblImportReportSchema>;

// ---- want to read -----------------------------------------------------------------------------------------

export const WantToReadEntrySchema = z
  .object({
    id: z.uuid().openapi({ description: 'The queued series’ or book’s id (unique in one user’s queue)' }),
    itemType: z.enum(['series', 'book']),
    seriesId: z.uuid().nullable(),
    bookId: z.uuid().nullable(),
    addedAt: z.string(),
    position: z.number().int(),
    series: SeriesSchema.nullable(),
    book: BookSchema.nullable(),
  })
  .openapi('WantToReadEntry');
export type WantToReadEntryDto = z.infer<typeof WantToReadEntrySchema>;

export const WantToReadPageSchema = pageEnvelopeSchema(WantToReadEntrySchema, 'WantToReadPage');

export const AddWantToReadBodySchema = acceptTwins(
  z
    .strictObject({ seriesId: z.uuid('must be a UUID').optional(), bookId: z.uuid('must be a UUID').optional() })
    .refine((body) => (body.seriesId === undefined) !== (body.bookId === undefined), {
      message: 'exactly one of seriesId and bookId is required',
    }),
).openapi('AddWantToReadRequest');

export const BulkWantToReadBodySchema = acceptTwins(
  z
    .strictObject({ seriesIds: Ids('Series').optional(), bookIds: Ids('Book').optional() })
    .refine((body) => (body.seriesIds?.length ?? 0) + (body.bookIds?.length ?? 0) > 0, {
      message: 'seriesIds or bookIds must name at least one item',
    }),
).openapi('BulkAddWantToReadRequest');

export const BulkWantToReadResultSchema = z
  .object({ added: z.number().int(), alreadyPresent: z.number().int() })
  .openapi('BulkAddWantToReadResponse');

export const WantToReadOrderBodySchema = acceptTwins(
  z.strictObject({
    ids: Ids('Queued series or book').openapi({
      description: 'Queued series and book ids in their new order; the others follow in their current order',
    }),
  }),
).openapi('WantToReadOrderRequest');
