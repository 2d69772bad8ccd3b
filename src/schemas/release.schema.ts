/**
 * Release tracking on the wire (issue 32), in Codex-rs's shapes (its `dto/tracking.rs` and `dto/release.rs`):
 * a series' tracking, aliases and external ids; the release ledger and its inbox; the release sources.
 * docs/DECISIONS.md §Release tracking says where Longbox differs (interval instead of cron, nullable fields
 * always present, fields Codex has no use for here left out, a few fields added).
 */
import { z } from '@hono/zod-openapi';
import { acceptTwins } from '../lib/body';
import { GetPageQuerySchema, pageEnvelopeSchema } from '../lib/pagination';

const LanguageSchema = z
  .string()
  .regex(/^[a-z]{2,3}$/, 'must be an ISO 639-1 code such as en')
  .openapi({ example: 'en' });

// ---- a series' tracking ---------------------------------------------------------------------------------

export const TrackingSourceSchema = z
  .object({
    sourceId: z.uuid(),
    pluginId: z.string().openapi({ description: 'The provider (mangaupdates, anilist)' }),
    displayName: z.string(),
    enabled: z.boolean(),
    externalId: z.string().nullable().openapi({
      description: "The provider's id this source polls: the series' own, or the one a search by name found",
    }),
    nextPollAt: z.string(),
    lastPolledAt: z.string().nullable(),
    lastError: z.string().nullable(),
    chapterCount: z.number().nullable().openapi({ description: "The provider's chapter count" }),
    volumeCount: z.number().int().nullable(),
    status: z.string().nullable().openapi({ description: 'ongoing, complete, hiatus, cancelled, upcoming' }),
  })
  .openapi('TrackingSource');

export const SeriesTrackingSchema = z
  .object({
    seriesId: z.uuid(),
    tracked: z.boolean(),
    trackChapters: z.boolean(),
    trackVolumes: z.boolean(),
    latestKnownChapter: z.number().nullable().openapi({ description: 'Highest chapter the ledger has seen' }),
    latestKnownVolume: z.number().int().nullable(),
    pollIntervalOverrideS: z.number().int().nullable(),
    languages: z.array(z.string()).nullable().openapi({ description: "null: the server's releases.default_languages" }),
    upstreamProvider: z
      .string()
      .nullable()
      .openapi({ description: 'The provider furthest ahead, whose counts make the gap' }),
    upstreamChapterCount: z.number().nullable(),
    upstreamVolumeCount: z.number().int().nullable(),
    upstreamStatus: z.string().nullable(),
    sources: z.array(TrackingSourceSchema).openapi({ description: 'Where each source stands with this series' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('SeriesTracking');
export type SeriesTrackingDto = z.infer<typeof SeriesTrackingSchema>;

export const UpdateSeriesTrackingBodySchema = acceptTwins(
  z.strictObject({
    tracked: z.boolean().optional(),
    trackChapters: z.boolean().optional(),
    trackVolumes: z.boolean().optional(),
    latestKnownChapter: z.number().min(0).max(100_000).nullable().optional(),
    latestKnownVolume: z.number().int().min(0).max(10_000).nullable().optional(),
    pollIntervalOverrideS: z
      .number()
      .int()
      .min(3600, 'must be at least 3600 (an hour)')
      .max(2_592_000, 'must be at most 2592000 (30 days)')
      .nullable()
      .optional(),
    languages: z.array(LanguageSchema).min(1).max(20).nullable().optional(),
  }),
).openapi('UpdateSeriesTracking');
export type UpdateSeriesTrackingBody = z.infer<typeof UpdateSeriesTrackingBodySchema>;

export const SeriesAliasSchema = z
  .object({
    id: z.uuid(),
    seriesId: z.uuid(),
    alias: z.string(),
    normalized: z.string(),
    source: z.enum(['metadata', 'manual']),
    createdAt: z.string(),
  })
  .openapi('SeriesAlias');

export const SeriesAliasListSchema = z.object({ aliases: z.array(SeriesAliasSchema) }).openapi('SeriesAliasList');

export const CreateSeriesAliasBodySchema = acceptTwins(
  z.strictObject({
    alias: z.string().trim().min(1, 'must not be empty').max(300, 'must be at most 300 characters'),
    source: z.enum(['manual', 'metadata']).optional(),
  }),
).openapi('CreateSeriesAlias');

export const SeriesExternalIdSchema = z
  .object({
    id: z.uuid(),
    seriesId: z.uuid(),
    source: z.string().openapi({ description: 'The provider (mangaupdates, anilist)' }),
    externalId: z.string(),
    externalUrl: z.string().nullable(),
    origin: z
      .enum(['manual', 'metadata'])
      .openapi({ description: 'metadata: read from the series’ or its books’ links' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('SeriesExternalId');

export const SeriesExternalIdListSchema = z
  .object({ externalIds: z.array(SeriesExternalIdSchema) })
  .openapi('SeriesExternalIdList');

export const CreateSeriesExternalIdBodySchema = acceptTwins(
  z.strictObject({
    source: z.string().trim().min(1, 'must not be empty').openapi({ example: 'mangaupdates' }),
    externalId: z
      .string()
      .trim()
      .min(1, 'must not be empty')
      .openapi({ description: "The provider's id, or its page address", example: '15180124327' }),
    externalUrl: z.string().url('must be a URL').nullable().optional(),
  }),
).openapi('CreateSeriesExternalId');

export const SeriesAliasParamsSchema = z.object({
  id: z.uuid('must be a UUID').openapi({ param: { name: 'id', in: 'path' } }),
  aliasId: z.uuid('must be a UUID').openapi({ param: { name: 'aliasId', in: 'path' } }),
});

export const SeriesExternalIdParamsSchema = z.object({
  id: z.uuid('must be a UUID').openapi({ param: { name: 'id', in: 'path' } }),
  externalIdId: z.uuid('must be a UUID').openapi({ param: { name: 'externalIdId', in: 'path' } }),
});

export const PollNowSchema = z
  .object({
    status: z.enum(['enqueued']),
    message: z.string(),
    polls: z.number().int().openapi({ description: 'Polls queued (one per source and series)' }),
  })
  .openapi('PollNow');

// ---- the ledger -----------------------------------------------------------------------------------------

/** Codex-rs's ledger states (src/db/tables/releases.ts RELEASE_STATES, kept equal by services/releases.service.ts). */
export const ReleaseStateSchema = z
  .enum(['announced', 'dismissed', 'marked_acquired', 'ignored', 'hidden'])
  .openapi('ReleaseState', {
    description: 'announced (new), dismissed, marked_acquired, ignored, hidden',
  });

export const ReleaseSpanSchema = z.object({ start: z.number(), end: z.number() }).openapi('ReleaseSpan');

export const ReleaseSchema = z
  .object({
    id: z.uuid(),
    seriesId: z.uuid(),
    seriesTitle: z.string(),
    sourceId: z.uuid(),
    externalReleaseId: z.string(),
    chapters: z.array(ReleaseSpanSchema).nullable(),
    volumes: z.array(ReleaseSpanSchema).nullable(),
    language: z.string().nullable(),
    groupOrUploader: z.string().nullable(),
    payloadUrl: z.string(),
    confidence: z.number(),
    state: ReleaseStateSchema,
    metadata: z.record(z.string(), z.unknown()).nullable(),
    observedAt: z.string(),
    releasedAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('ReleaseLedgerEntry');
export type ReleaseDto = z.infer<typeof ReleaseSchema>;

export const ReleasePageSchema = pageEnvelopeSchema(ReleaseSchema, 'ReleaseLedgerPage');

const SORT = /^(series|observed|released)(,(asc|desc))?$/;

export const ReleaseInboxQuerySchema = GetPageQuerySchema.extend({
  state: z
    .union([ReleaseStateSchema, z.literal('all')])
    .optional()
    .openapi({ param: { name: 'state', in: 'query' }, description: 'Default announced; all: every state' }),
  seriesId: z
    .uuid('must be a UUID')
    .optional()
    .openapi({ param: { name: 'seriesId', in: 'query' } }),
  sourceId: z
    .uuid('must be a UUID')
    .optional()
    .openapi({ param: { name: 'sourceId', in: 'query' } }),
  libraryId: z
    .uuid('must be a UUID')
    .optional()
    .openapi({ param: { name: 'libraryId', in: 'query' } }),
  language: LanguageSchema.optional().openapi({ param: { name: 'language', in: 'query' } }),
  sort: z
    .string()
    .regex(SORT, 'must be series, observed or released, optionally followed by ,asc or ,desc')
    .optional()
    .openapi({ param: { name: 'sort', in: 'query' }, example: 'observed,desc' }),
});

export const SeriesReleasesQuerySchema = GetPageQuerySchema.extend({
  state: z
    .union([ReleaseStateSchema, z.literal('all')])
    .optional()
    .openapi({ param: { name: 'state', in: 'query' }, description: 'Default: every state' }),
});

export const UpdateReleaseBodySchema = z
  .strictObject({ state: ReleaseStateSchema })
  .openapi('UpdateReleaseLedgerEntry');

export const BulkReleaseActionSchema = z
  .enum(['dismiss', 'mark-acquired', 'ignore', 'reset', 'delete'])
  .openapi('BulkReleaseAction');

export const BulkReleaseBodySchema = z
  .strictObject({
    ids: z.array(z.uuid('must be a UUID')).min(1, 'must not be empty').max(500, 'at most 500 ids'),
    action: BulkReleaseActionSchema,
  })
  .openapi('BulkReleaseActionRequest');

export const BulkReleaseResultSchema = z
  .object({ affected: z.number().int(), action: BulkReleaseActionSchema })
  .openapi('BulkReleaseActionResponse');

export const DeleteReleaseResultSchema = z.object({ deleted: z.boolean() }).openapi('DeleteReleaseResponse');

// ---- sources ----------------------------------------------------------------------------------------------

export const ReleaseSourceSchema = z
  .object({
    id: z.uuid(),
    pluginId: z.string().openapi({ description: 'The built-in provider (mangaupdates, anilist)' }),
    sourceKey: z.string(),
    displayName: z.string(),
    kind: z.enum(['api-feed', 'metadata-feed']),
    enabled: z.boolean(),
    pollIntervalS: z.number().int().openapi({ description: 'Seconds between two polls of one series' }),
    status: z.enum(['never_polled', 'ok', 'errored']),
    lastPolledAt: z.string().nullable(),
    lastError: z.string().nullable(),
    lastErrorAt: z.string().nullable(),
    lastSummary: z.string().nullable(),
    backoffUntil: z
      .string()
      .nullable()
      .openapi({ description: 'The provider asked to wait (429) or failed: no request before this' }),
    trackedSeries: z.number().int(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('ReleaseSource');
export type ReleaseSourceDto = z.infer<typeof ReleaseSourceSchema>;

export const ReleaseSourceListSchema = z.object({ sources: z.array(ReleaseSourceSchema) }).openapi('ReleaseSourceList');

export const UpdateReleaseSourceBodySchema = acceptTwins(
  z.strictObject({
    displayName: z.string().trim().min(1, 'must not be empty').max(100).optional(),
    enabled: z.boolean().optional(),
    pollIntervalS: z
      .number()
      .int()
      .min(3600, 'must be at least 3600 (an hour)')
      .max(2_592_000, 'must be at most 2592000 (30 days)')
      .optional(),
  }),
).openapi('UpdateReleaseSource');

export const PollAllNowSchema = z
  .object({
    considered: z.number().int(),
    enqueued: z.number().int().openapi({ description: 'Sources whose series were made due now' }),
    coalesced: z.number().int(),
    failed: z.number().int(),
  })
  .openapi('PollAllNow');

export const ResetReleaseSourceSchema = z
  .object({ deletedLedgerEntries: z.number().int() })
  .openapi('ResetReleaseSource');
