/**
 * Reading sessions and statistics on the wire (docs/API.md §Reading statistics; Codex-rs's shapes, AshDevFr/codex
 * docs/docs/reading-sessions.md and crates/codex-api/src/routes/v1/dto/reading_{sessions,stats}.rs): camelCase like
 * every record API.md does not show (DECISIONS.md §API conventions).
 */
import { z } from '@hono/zod-openapi';
import { MAX_SESSIONS_PER_BATCH } from '../reading/rules';
import { isTimeZone } from '../reading/time-zone';

const instant = z.string().openapi({ description: 'ISO 8601 date-time', example: '2026-08-14T19:02:11Z' });

/**
 * One measured session. Types are checked here (a malformed body is a 400 for the batch); what makes a well-formed
 * session unacceptable — its times, its measurement, its book — is a per-session rejection with a reason.
 */
export const MeasuredSessionSchema = z
  .object({
    id: z
      .string()
      .min(1)
      .max(100)
      .openapi({ description: "The client's id for the session: sending it again changes nothing" }),
    bookId: z.string().min(1).max(100),
    deviceId: z
      .string()
      .regex(/^[\x21-\x7e]{1,100}$/, 'must be 1 to 100 printable characters without spaces')
      .openapi({
        description: 'The device that measured it (the Longbox-Device-Id it sends with its progress writes)',
      }),
    deviceName: z.string().min(1).max(100).optional(),
    kind: z.enum(['progress', 'completed', 'reset']).default('progress').openapi({
      description:
        '`completed`: the book was finished during the session. The position itself is what PUT /books/{id}/progress last set.',
    }),
    toPage: z.number().int().optional().openapi({ description: 'Where the session ended (1-based); informative' }),
    toPercentage: z.number().optional().openapi({ description: 'Where the session ended, 0..1; informative' }),
    activeDurationMs: z
      .number()
      .int()
      .optional()
      .openapi({ description: 'Time actually spent reading; omit it rather than send 0 when unmeasured' }),
    pagesRead: z.number().int().optional().openapi({ description: 'Pages turned during the session' }),
    clientStartedAt: instant,
    clientEndedAt: instant,
  })
  .openapi('MeasuredReadingSession');
export type MeasuredSessionBody = z.infer<typeof MeasuredSessionSchema>;

export const RecordSessionsBodySchema = z
  .object({ sessions: z.array(MeasuredSessionSchema).min(1).max(MAX_SESSIONS_PER_BATCH) })
  .openapi('RecordReadingSessions');

export const REJECTION_REASONS = [
  'book_not_found',
  'invalid_time_range',
  'invalid_percentage',
  'invalid_measurement',
  'duplicate_in_batch',
] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

export const RecordSessionsResultSchema = z
  .object({
    accepted: z
      .array(z.string())
      .openapi({ description: 'Ids recorded now or before (a repeat is accepted and changes nothing)' }),
    rejected: z.array(z.object({ id: z.string(), reason: z.enum(REJECTION_REASONS), detail: z.string() })),
    progress: z
      .array(z.object({ bookId: z.string(), currentPage: z.number().int(), completed: z.boolean() }))
      .openapi({ description: 'The current progress of every accepted book that has some' }),
  })
  .openapi('RecordReadingSessionsResult');
export type RecordSessionsResult = z.infer<typeof RecordSessionsResultSchema>;

export const StatsQuerySchema = z.object({
  from: z.iso
    .datetime({ offset: true })
    .optional()
    .openapi({ description: 'Start of the window (default: a year before `to`)' }),
  to: z.iso
    .datetime({ offset: true })
    .optional()
    .openapi({ description: 'End of the window, exclusive (default: now)' }),
  granularity: z.enum(['day', 'week', 'month']).default('day'),
  sort: z.enum(['time', 'pages', 'completions']).default('time'),
  seriesLimit: z.coerce
    .number()
    .int()
    .min(1)
    .max(100)
    .default(10)
    .openapi({ description: 'How many series and authors' }),
  tz: z
    .string()
    .max(64)
    .refine(isTimeZone, 'must be an IANA time zone such as Europe/Paris')
    .optional()
    .default('UTC')
    .openapi({ description: 'IANA time zone days, weeks and months are counted in (the web app sends the browser’s)' }),
});
export type StatsQuery = z.infer<typeof StatsQuerySchema>;

const DurationSchema = z
  .object({
    measuredMs: z.number().int().openapi({ description: 'Time clients measured' }),
    inferredMs: z
      .number()
      .int()
      .openapi({ description: 'Time inferred from the gaps between progress writes (an estimate)' }),
    totalMs: z.number().int(),
  })
  .openapi('ReadingDuration');

const measures = {
  duration: DurationSchema,
  pagesRead: z.number().int(),
  sessions: z.number().int(),
  books: z.number().int(),
  booksFinished: z.number().int(),
};

export const ReadingStatsSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    granularity: z.enum(['day', 'week', 'month']),
    timeZone: z.string(),
    summary: z.object({
      ...measures,
      booksStarted: z.number().int().openapi({ description: 'Books first read in the window' }),
      sessionsWithoutDuration: z.number().int(),
      sessionsWithoutPages: z.number().int(),
    }),
    periods: z.array(
      z.object({
        bucket: z.string().openapi({ description: 'First local day of the period (YYYY-MM-DD)' }),
        ...measures,
      }),
    ),
    devices: z.array(
      z.object({
        deviceId: z.string(),
        deviceName: z.string().nullable(),
        ...measures,
        lastReadAt: z.string().nullable(),
      }),
    ),
    series: z.array(z.object({ seriesId: z.string(), seriesName: z.string().nullable(), ...measures })),
    authors: z.array(z.object({ name: z.string(), ...measures })),
    formats: z.array(z.object({ format: z.string(), ...measures })),
  })
  .openapi('ReadingStats');
export type ReadingStatsDto = z.infer<typeof ReadingStatsSchema>;

export const ReadingCoverageSchema = z
  .object({ firstReadAt: z.string().nullable(), lastReadAt: z.string().nullable() })
  .openapi('ReadingCoverage');

export const DeviceParamSchema = z.object({
  deviceId: z
    .string()
    .min(1)
    .max(120)
    .openapi({ param: { name: 'deviceId', in: 'path' }, example: 'api-key:0b9a6c1e-5f4d-4c1e-9a39-3f1c2b7d8e90' }),
});

export const RenameDeviceBodySchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1)
      .max(100)
      .nullable()
      .openapi({ description: 'null gives the device back its own name' }),
  })
  .openapi('RenameReadingDevice');

export const ExportQuerySchema = z.object({ format: z.enum(['json', 'csv']).default('json') });

export const ExportedSessionSchema = z
  .object({
    id: z.string(),
    bookId: z.string(),
    bookTitle: z.string(),
    seriesName: z.string(),
    deviceId: z.string(),
    deviceName: z.string(),
    startedAt: z.string(),
    endedAt: z.string(),
    measuredMs: z.number().int().nullable(),
    inferredMs: z.number().int().nullable(),
    pagesRead: z.number().int().nullable(),
    finished: z.boolean(),
  })
  .openapi('ExportedReadingSession');

export const ServerStatsSchema = z
  .object({
    from: z.string(),
    to: z.string(),
    granularity: z.enum(['day', 'week', 'month']),
    timeZone: z.string(),
    summary: z.object({ ...measures, readers: z.number().int() }),
    periods: z.array(z.object({ bucket: z.string(), ...measures })),
    series: z.array(
      z.object({ seriesId: z.string(), seriesName: z.string().nullable(), ...measures, readers: z.number().int() }),
    ),
    users: z.array(z.object({ userId: z.string(), username: z.string().nullable(), ...measures })),
    libraries: z.array(
      z.object({ libraryId: z.string(), libraryName: z.string().nullable(), ...measures, readers: z.number().int() }),
    ),
  })
  .openapi('ServerReadingStats');
export type ServerStatsDto = z.infer<typeof ServerStatsSchema>;

/** The most a KOReader statistics upload may weigh (routes/reading-stats: read whole, in a 128 MB isolate). */
export const KOREADER_STATISTICS_MAX_BYTES = 32 * 1024 * 1024;

export const KoreaderUploadResultSchema = z
  .object({
    schemaVersion: z.number().int().openapi({ description: "The database's KOReader schema (`PRAGMA user_version`)" }),
    device: z
      .object({ deviceId: z.string(), deviceName: z.string() })
      .openapi({ description: 'The device a sitting that lands in no sitting of another device is counted on' }),
    accepted: z.number().int().openapi({ description: 'Sittings recorded now' }),
    alreadyKnown: z
      .number()
      .int()
      .openapi({ description: 'Sittings a previous upload recorded: their figures are refreshed, nothing is added' }),
    measuredMs: z.number().int().openapi({ description: 'Reading time of the sittings recorded now' }),
    unmatchedBooks: z
      .array(
        z.object({
          md5: z.string().nullable().openapi({ description: "KOReader's partial MD5; null when it kept none" }),
          title: z.string().nullable(),
          authors: z.string().nullable(),
          sittings: z.number().int(),
        }),
      )
      .openapi({
        description: 'Books of the database no book you can see has the hash of: their reading is not counted',
      }),
    rejected: z
      .array(z.object({ id: z.string(), reason: z.enum(REJECTION_REASONS), detail: z.string() }))
      .openapi({ description: 'Sittings not recorded, with why (the id is `koreader:<md5>:<first Unix second>`)' }),
  })
  .openapi('KoreaderStatisticsUploadResult');
export type KoreaderUploadResult = z.infer<typeof KoreaderUploadResultSchema>;
