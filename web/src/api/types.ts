/**
 * The wire types the web app reads and writes, inferred from the API's own zod schemas (src/schemas).
 * Type-only imports: nothing of zod or the server reaches the browser bundle, and a schema change
 * breaks `npm run typecheck` here instead of a screen at runtime.
 */
import type { z } from 'zod';
import type { ApiKeySchema, CreatedApiKeySchema } from '../../../src/schemas/api-key.schema';
import type { LoginResponseSchema, SetupStatusSchema } from '../../../src/schemas/auth.schema';
import type { BookSchema } from '../../../src/schemas/book.schema';
import type { BrowseResultSchema } from '../../../src/schemas/filesystem.schema';
import type { LibrarySchema } from '../../../src/schemas/library.schema';
import type { CollectionSchema, ReadListSchema, WantToReadEntrySchema } from '../../../src/schemas/lists.schema';
import type { BookPageEntrySchema } from '../../../src/schemas/page.schema';
import type { ReadProgressSchema, UpdateProgressBodySchema } from '../../../src/schemas/read-progress.schema';
import type {
  ReadingCoverageSchema,
  ReadingStatsSchema,
  ServerStatsSchema,
} from '../../../src/schemas/reading-stats.schema';
import type { PreferencesSchema } from '../../../src/schemas/preferences.schema';
import type { ScanStatusSchema } from '../../../src/schemas/scan.schema';
import type { SeriesSchema } from '../../../src/schemas/series.schema';
import type {
  ReleaseSchema,
  ReleaseSourceSchema,
  SeriesAliasSchema,
  SeriesExternalIdSchema,
  SeriesTrackingSchema,
} from '../../../src/schemas/release.schema';
import type { BookMetadataSchema, SeriesMetadataSchema } from '../../../src/schemas/metadata.schema';
import type { SettingHistoryEntrySchema, SettingSchema } from '../../../src/schemas/settings.schema';
import type {
  BrowserSessionSchema,
  LinkedIdentitySchema,
  OidcLoginResponseSchema,
  OidcProvidersSchema,
  SsoConfigurationSchema,
} from '../../../src/schemas/sso.schema';
import type { HealthSchema, MetricsSchema } from '../../../src/schemas/system.schema';
import type { DuplicateGroupSchema, TaskSchema } from '../../../src/schemas/task.schema';
import type { UserSchema } from '../../../src/schemas/user.schema';
import type { SharingTagSchema, SharingTagSummarySchema } from '../../../src/schemas/sharing-tag.schema';
import type { ErrorBodySchema } from '../../../src/lib/errors';
import type { PageEnvelope } from '../../../src/lib/pagination';
import type { DomainEvent } from '../../../src/events/events';

export type ErrorBody = z.infer<typeof ErrorBodySchema>;
export type LoginResponse = z.infer<typeof LoginResponseSchema>;
export type SessionUser = LoginResponse['user'];
export type SetupStatus = z.infer<typeof SetupStatusSchema>;
export type Book = z.infer<typeof BookSchema>;
export type Series = z.infer<typeof SeriesSchema>;
export type SeriesTracking = z.infer<typeof SeriesTrackingSchema>;
export type SeriesAlias = z.infer<typeof SeriesAliasSchema>;
export type SeriesExternalId = z.infer<typeof SeriesExternalIdSchema>;
export type Release = z.infer<typeof ReleaseSchema>;
export type ReleaseSource = z.infer<typeof ReleaseSourceSchema>;
export type SeriesMetadata = z.infer<typeof SeriesMetadataSchema>;
export type BookMetadata = z.infer<typeof BookMetadataSchema>;
export type Library = z.infer<typeof LibrarySchema>;
export type Collection = z.infer<typeof CollectionSchema>;
export type ReadList = z.infer<typeof ReadListSchema>;
export type WantToReadEntry = z.infer<typeof WantToReadEntrySchema>;
export type BookPageEntry = z.infer<typeof BookPageEntrySchema>;
export type ReadProgress = z.infer<typeof ReadProgressSchema>;
export type UpdateProgressBody = z.input<typeof UpdateProgressBodySchema>;
export type ScanStatus = z.infer<typeof ScanStatusSchema>;
export type ReadingStats = z.infer<typeof ReadingStatsSchema>;
export type ReadingDuration = ReadingStats['summary']['duration'];
export type ReadingDevice = ReadingStats['devices'][number];
export type ReadingCoverage = z.infer<typeof ReadingCoverageSchema>;
export type ServerReadingStats = z.infer<typeof ServerStatsSchema>;
export type Preferences = z.infer<typeof PreferencesSchema>;
export type BrowseResult = z.infer<typeof BrowseResultSchema>;
export type ApiKey = z.infer<typeof ApiKeySchema>;
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>;
export type User = z.infer<typeof UserSchema>;
export type SharingTag = z.infer<typeof SharingTagSchema>;
export type SharingTagSummary = z.infer<typeof SharingTagSummarySchema>;
export type Setting = z.infer<typeof SettingSchema>;
export type SettingHistoryEntry = z.infer<typeof SettingHistoryEntrySchema>;
export type Task = z.infer<typeof TaskSchema>;
export type DuplicateGroup = z.infer<typeof DuplicateGroupSchema>;
export type Health = z.infer<typeof HealthSchema>;
export type Metrics = z.infer<typeof MetricsSchema>;
export type SignInOptions = z.infer<typeof OidcProvidersSchema>;
export type OidcLoginResponse = z.infer<typeof OidcLoginResponseSchema>;
export type BrowserSession = z.infer<typeof BrowserSessionSchema>;
export type LinkedIdentity = z.infer<typeof LinkedIdentitySchema>;
export type SsoConfiguration = z.infer<typeof SsoConfigurationSchema>;
/** The progress events of /tasks/stream and /scans/stream (API.md §6). */
export type TaskProgressEvent = Extract<DomainEvent, { type: 'task_progress' }>;
export type ScanProgressEvent = Extract<DomainEvent, { type: 'scan_progress' }>;

/** The paginated envelope of API.md §4. */
export type Page<T> = PageEnvelope<T>;
