/**
 * The admin import API (docs/API.md §Import, docs/DECISIONS.md §Coming from Komga or Kavita): what the migrate
 * command sends, in batches, after reading a Komga or Kavita database on the admin's machine. Every batch is
 * idempotent: what a batch created is remembered under the peer's ids (`source`, `foreignId`), so sending it
 * again changes nothing, and a run cut off half-way is finished by running it again.
 */
import { z } from '@hono/zod-openapi';
import { IMPORTED_PASSWORD_FORMATS } from '../auth/imported-password';
import { BookMetadataPatchSchema, SeriesMetadataPatchSchema } from './metadata.schema';
import { AgeRestrictionSchema, EmailSchema, UsernameSchema } from './user.schema';

export const IMPORT_LIMITS = {
  books: 1000,
  users: 100,
  progress: 1000,
  wantToRead: 1000,
  lists: 50,
  listMembers: 5000,
  metadata: 200,
  apiKeys: 100,
} as const;

/** The peer instance, as the migrate command names it: `komga:<fingerprint>` or `kavita:<install id>`. */
const SourceSchema = z
  .string()
  .regex(/^(komga|kavita):[A-Za-z0-9._:+-]{1,120}$/, 'must be komga:<id> or kavita:<id>')
  .openapi({ example: 'komga:2024-03-01T10:00:00' });

/** A peer's id of something (Komga's TSIDs, Kavita's integers as text). */
const ForeignIdSchema = z.string().min(1).max(200);
const Instant = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' });

// ---- books --------------------------------------------------------------------------------------------------

export const BookCandidateSchema = z.object({
  ref: z.string().min(1).max(200).openapi({ description: 'The peer’s id of the book, echoed in the answer' }),
  libraryId: z.uuid().nullable().openapi({ description: 'The Longbox library the peer’s library maps to' }),
  path: z
    .string()
    .max(4096)
    .nullable()
    .openapi({ description: 'The file’s path relative to its library’s root, with / between folders' }),
  readerHash: z.string().max(64).nullable().openapi({ description: 'KOReader’s partial MD5, as the peer stored it' }),
  fileSize: z.number().int().min(0).nullable(),
  fileName: z.string().max(1024).nullable().openapi({ description: 'The file’s name with its extension' }),
});

export const MatchBooksBodySchema = z
  .object({ books: z.array(BookCandidateSchema).max(IMPORT_LIMITS.books) })
  .openapi('ImportMatchBooks');

export const BookMatchSchema = z
  .object({
    ref: z.string(),
    bookId: z.uuid().nullable(),
    seriesId: z.uuid().nullable(),
    by: z.enum(['path', 'readerHash', 'sizeAndName']).nullable(),
    reason: z.string().nullable().openapi({ description: 'Why nothing matched, when nothing did' }),
  })
  .openapi('ImportBookMatch');

export const MatchBooksAnswerSchema = z.object({ matches: z.array(BookMatchSchema) }).openapi('ImportBookMatches');

// ---- outcomes -----------------------------------------------------------------------------------------------

export const ImportOutcomeSchema = z
  .object({
    foreignId: z.string(),
    id: z.string().nullable().openapi({ description: 'What it is in Longbox (null when skipped)' }),
    outcome: z.enum(['created', 'merged', 'unchanged', 'skipped']),
    reason: z.string().nullable(),
  })
  .openapi('ImportOutcome');

export const ImportOutcomesSchema = z.object({ results: z.array(ImportOutcomeSchema) }).openapi('ImportOutcomes');

// ---- users --------------------------------------------------------------------------------------------------

export const ImportUserSchema = z.object({
  foreignId: ForeignIdSchema,
  username: UsernameSchema,
  email: EmailSchema,
  role: z.enum(['admin', 'reader']),
  active: z.boolean(),
  password: z
    .object({ format: z.enum(IMPORTED_PASSWORD_FORMATS), hash: z.string().min(1).max(1024) })
    .nullable()
    .openapi({ description: 'The peer’s hash, checked at the first sign-in and then replaced; null: no password' }),
  sharedAllLibraries: z.boolean(),
  libraryIds: z.array(z.uuid()).max(1000),
  ageRestriction: AgeRestrictionSchema.nullable(),
  labelsAllow: z.array(z.string().trim().min(1).max(200)).max(200),
  labelsExclude: z.array(z.string().trim().min(1).max(200)).max(200),
});

export const ImportUsersBodySchema = z
  .object({
    source: SourceSchema,
    mergeExisting: z.boolean().openapi({
      description:
        'A user whose e-mail address or name a Longbox account already has becomes that account (which keeps ' +
        'its password, role and access); false: such a user is skipped and reported',
    }),
    users: z.array(ImportUserSchema).max(IMPORT_LIMITS.users),
  })
  .openapi('ImportUsers');

// ---- progress -----------------------------------------------------------------------------------------------

export const ImportProgressEntrySchema = z.object({
  userId: z.uuid(),
  bookId: z.uuid(),
  page: z.number().int().min(0).openapi({ description: 'The page (1-based); an EPUB’s Readium position' }),
  completed: z.boolean(),
  startedAt: Instant,
  updatedAt: Instant,
  completedAt: Instant.nullable(),
  percentage: z.number().min(0).max(1).nullable().openapi({ description: 'A reflowable EPUB’s place (0..1)' }),
  locator: z
    .string()
    .max(16_384)
    .nullable()
    .openapi({ description: 'A Readium locator (JSON), kept as the EPUB position; at most 4 KiB once stored' }),
  epubSpineIndex: z.number().int().min(0).nullable().openapi({
    description: 'Kavita: the EPUB is placed at the start of this spine item (page and locator follow from it)',
  }),
  device: z.object({ id: z.string().max(200), name: z.string().max(200) }).nullable(),
});

export const ImportProgressBodySchema = z
  .object({ source: SourceSchema, entries: z.array(ImportProgressEntrySchema).max(IMPORT_LIMITS.progress) })
  .openapi('ImportProgress');

export const ImportCountsSchema = z
  .object({
    written: z.number().int(),
    unchanged: z.number().int(),
    skipped: z.array(z.object({ index: z.number().int(), reason: z.string() })),
  })
  .openapi('ImportCounts');

// ---- want to read -------------------------------------------------------------------------------------------

export const ImportWantToReadBodySchema = z
  .object({
    source: SourceSchema,
    entries: z
      .array(z.object({ userId: z.uuid(), seriesId: z.uuid().nullable(), bookId: z.uuid().nullable() }))
      .max(IMPORT_LIMITS.wantToRead),
  })
  .openapi('ImportWantToRead');

// ---- lists --------------------------------------------------------------------------------------------------

export const ImportListSchema = z.object({
  foreignId: ForeignIdSchema,
  kind: z.enum(['collection', 'readList']),
  ownerId: z.uuid().nullable().openapi({ description: 'The user whose list it is; null: shared with everyone' }),
  name: z.string().trim().min(1).max(200),
  summary: z.string().max(10_000).nullable(),
  ordered: z.boolean(),
  memberIds: z
    .array(z.uuid())
    .max(IMPORT_LIMITS.listMembers)
    .openapi({ description: 'Series (collection) or books (read list), in the list’s order' }),
});

export const ImportListsBodySchema = z
  .object({ source: SourceSchema, lists: z.array(ImportListSchema).max(IMPORT_LIMITS.lists) })
  .openapi('ImportLists');

// ---- metadata edited by hand ------------------------------------------------------------------------------

export const ImportSeriesSchema = z.object({
  foreignId: ForeignIdSchema,
  seriesId: z.uuid(),
  locked: SeriesMetadataPatchSchema.openapi({
    description: 'The values the peer kept locked (edited by hand there): each is written and locked here',
  }),
  sharingLabels: z.array(z.string().trim().min(1).max(200)).max(200).openapi({
    description: 'Komga’s sharing labels of the series (what its users’ label restrictions test)',
  }),
});

export const ImportBookMetadataSchema = z.object({
  foreignId: ForeignIdSchema,
  bookId: z.uuid(),
  locked: BookMetadataPatchSchema,
});

export const ImportMetadataBodySchema = z
  .object({
    source: SourceSchema,
    series: z.array(ImportSeriesSchema).max(IMPORT_LIMITS.metadata),
    books: z.array(ImportBookMetadataSchema).max(IMPORT_LIMITS.metadata),
  })
  .openapi('ImportMetadata');

// ---- API keys -----------------------------------------------------------------------------------------------

export const ImportApiKeysBodySchema = z
  .object({
    source: SourceSchema,
    keys: z
      .array(
        z.object({
          foreignId: ForeignIdSchema,
          userId: z.uuid(),
          name: z.string().trim().min(1).max(200),
          sha512: z
            .string()
            .regex(/^[0-9a-f]{128}$/, 'must be a SHA-512 in lowercase hex')
            .openapi({ description: 'Komga’s stored hash of the key (USER_API_KEY.API_KEY)' }),
          createdAt: Instant,
        }),
      )
      .max(IMPORT_LIMITS.apiKeys),
  })
  .openapi('ImportApiKeys');

// ---- covers -------------------------------------------------------------------------------------------------

/** The cover's owner and peer id in the query; the image is the body (JPEG, PNG or WebP, as a cover upload). */
export const ImportCoverQuerySchema = z.object({
  source: SourceSchema,
  foreignId: ForeignIdSchema,
  kind: z.enum(['series', 'book']),
  id: z.uuid().openapi({ description: 'The series or book the cover is for' }),
});

export type BookCandidate = z.infer<typeof BookCandidateSchema>;
export type BookMatch = z.infer<typeof BookMatchSchema>;
export type ImportOutcome = z.infer<typeof ImportOutcomeSchema>;
export type ImportUser = z.infer<typeof ImportUserSchema>;
export type ImportUsersBody = z.infer<typeof ImportUsersBodySchema>;
export type ImportProgressEntry = z.infer<typeof ImportProgressEntrySchema>;
export type ImportCounts = z.infer<typeof ImportCountsSchema>;
export type ImportWantToReadBody = z.infer<typeof ImportWantToReadBodySchema>;
export type ImportList = z.infer<typeof ImportListSchema>;
export type ImportMetadataBody = z.infer<typeof ImportMetadataBodySchema>;
export type ImportApiKeysBody = z.infer<typeof ImportApiKeysBodySchema>;
