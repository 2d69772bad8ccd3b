/**
 * Contracts of release tracking (issue 32; docs/DECISIONS.md §Release tracking), in Codex-rs's paths and shapes:
 * a series' tracking, aliases and provider ids (SeriesRead to read, SeriesWrite to change), the release inbox
 * and ledger (SeriesRead; states change with SeriesWrite, as the inbox is the whole server's), and the release
 * sources (admins only: SystemAdmin).
 */
import { IdParamSchema } from '../../schemas/path-params.schema';
import {
  BulkReleaseBodySchema,
  BulkReleaseResultSchema,
  CreateSeriesAliasBodySchema,
  CreateSeriesExternalIdBodySchema,
  DeleteReleaseResultSchema,
  PollAllNowSchema,
  PollNowSchema,
  ReleaseInboxQuerySchema,
  ReleasePageSchema,
  ReleaseSchema,
  ReleaseSourceListSchema,
  ReleaseSourceSchema,
  ResetReleaseSourceSchema,
  SeriesAliasListSchema,
  SeriesAliasParamsSchema,
  SeriesAliasSchema,
  SeriesExternalIdListSchema,
  SeriesExternalIdParamsSchema,
  SeriesExternalIdSchema,
  SeriesReleasesQuerySchema,
  SeriesTrackingSchema,
  UpdateReleaseBodySchema,
  UpdateReleaseSourceBodySchema,
  UpdateSeriesTrackingBodySchema,
} from '../../schemas/release.schema';
import { contractsFor, empty, json } from '../contract';

const tracking = contractsFor('Tracking');
const releases = contractsFor('Releases');
const sources = contractsFor('Release sources');
const ADMIN = 'SystemAdmin';
const HIDDEN = 'A series you cannot see answers 404, exactly like a missing one.';
const ON =
  'Turning tracking on seeds it from the series: aliases from its titles, provider ids from its and its books’ web links (ComicInfo Web, Komf’s links), the high-water marks at what the library holds, and the axes from how its books are numbered; values sent win. Every source polls it from the next cron tick.';
const INBOX =
  'Releases of series you can see. state defaults to announced (all: every state); sort is series (default), observed or released, optionally ,asc or ,desc.';
const HIDDEN_RELEASE = 'A release of a series you cannot see answers 404, exactly like a missing one.';

// biome-ignore format: a table of endpoints, one per line
export const contracts = {
  getTracking: tracking.get('/series/{id}/tracking', 'SeriesRead', { summary: "A series' release tracking (SeriesRead)", description: `An untracked series answers tracked: false with defaults. ${HIDDEN}`, params: IdParamSchema, 200: json(SeriesTrackingSchema, 'The tracking'), errors: [400, 404] }),
  updateTracking: tracking.patch('/series/{id}/tracking', 'SeriesWrite', { summary: "Change a series' release tracking (SeriesWrite); omitted fields stay, null clears", description: `${ON} ${HIDDEN}`, params: IdParamSchema, body: UpdateSeriesTrackingBodySchema, 200: json(SeriesTrackingSchema, 'The tracking'), errors: [400, 404], speculation: 'checked-writes' }),
  pollSeries: tracking.post('/series/{id}/tracking/poll-now', 'SeriesWrite', { summary: 'Poll a tracked series now, at every enabled source (SeriesWrite)', description: `Queued, not waited for: the release-poll consumer asks the providers. 409 when the series is not tracked. ${HIDDEN}`, params: IdParamSchema, 202: json(PollNowSchema, 'Queued'), errors: [400, 404, 409] }),
  listAliases: tracking.get('/series/{id}/aliases', 'SeriesRead', { summary: "A series' aliases: other names providers may know it by (SeriesRead)", description: HIDDEN, params: IdParamSchema, 200: json(SeriesAliasListSchema, 'The aliases'), errors: [400, 404] }),
  addAlias: tracking.post('/series/{id}/aliases', 'SeriesWrite', { summary: 'Add an alias (SeriesWrite): 201 when added, 200 when the series had it', description: `Compared after normalizing (case, accents, punctuation). ${HIDDEN}`, params: IdParamSchema, body: CreateSeriesAliasBodySchema, 201: json(SeriesAliasSchema, 'Added'), 200: json(SeriesAliasSchema, 'Already there'), errors: [400, 404] }),
  deleteAlias: tracking.delete('/series/{id}/aliases/{aliasId}', 'SeriesWrite', { summary: 'Remove an alias (SeriesWrite)', description: HIDDEN, params: SeriesAliasParamsSchema, 204: empty('Removed'), errors: [400, 404] }),
  listExternalIds: tracking.get('/series/{id}/external-ids', 'SeriesRead', { summary: "A series' ids at the release providers (SeriesRead)", description: HIDDEN, params: IdParamSchema, 200: json(SeriesExternalIdListSchema, 'The ids'), errors: [400, 404] }),
  setExternalId: tracking.post('/series/{id}/external-ids', 'SeriesWrite', { summary: "Set a series' id at a provider, replacing the one it had (SeriesWrite)", description: `source: mangaupdates or anilist (api:/plugin: prefixes accepted); externalId: the id or the provider's page address. An unknown provider or a malformed id is a 400 naming the field. ${HIDDEN}`, params: IdParamSchema, body: CreateSeriesExternalIdBodySchema, 200: json(SeriesExternalIdSchema, 'The id'), errors: [400, 404] }),
  deleteExternalId: tracking.delete('/series/{id}/external-ids/{externalIdId}', 'SeriesWrite', { summary: "Remove a series' id at a provider (SeriesWrite)", description: HIDDEN, params: SeriesExternalIdParamsSchema, 204: empty('Removed'), errors: [400, 404] }),
  listSeriesReleases: releases.get('/series/{id}/releases', 'SeriesRead', { summary: "A series' release ledger, newest first (SeriesRead)", description: HIDDEN, params: IdParamSchema, query: SeriesReleasesQuerySchema, 200: json(ReleasePageSchema, 'A page of releases'), errors: [400, 404] }),
  listReleases: releases.get('/releases', 'SeriesRead', { summary: 'The release inbox (SeriesRead)', description: INBOX, query: ReleaseInboxQuerySchema, 200: json(ReleasePageSchema, 'A page of releases'), errors: [400] }),
  bulkReleases: releases.post('/releases/bulk', 'SeriesWrite', { summary: 'Dismiss, mark acquired, ignore, reset or delete many releases (SeriesWrite)', description: 'At most 500 ids; releases of series you cannot see are skipped (affected counts what changed). Deleted releases come back, announced, at their next poll.', body: BulkReleaseBodySchema, 200: json(BulkReleaseResultSchema, 'What changed'), errors: [400] }),
  updateRelease: releases.patch('/releases/{id}', 'SeriesWrite', { summary: "Set a release's state (SeriesWrite)", description: HIDDEN_RELEASE, params: IdParamSchema, body: UpdateReleaseBodySchema, 200: json(ReleaseSchema, 'The release'), errors: [400, 404] }),
  deleteRelease: releases.delete('/releases/{id}', 'SeriesWrite', { summary: 'Delete a release; its next poll records it again (SeriesWrite)', description: HIDDEN_RELEASE, params: IdParamSchema, 200: json(DeleteReleaseResultSchema, 'Deleted'), errors: [400, 404] }),
  dismissRelease: releases.post('/releases/{id}/dismiss', 'SeriesWrite', { summary: 'Dismiss a release (SeriesWrite)', description: HIDDEN_RELEASE, params: IdParamSchema, 200: json(ReleaseSchema, 'The release'), errors: [400, 404] }),
  acquireRelease: releases.post('/releases/{id}/mark-acquired', 'SeriesWrite', { summary: 'Mark a release acquired (SeriesWrite); a scan that finds its chapter does it too', description: HIDDEN_RELEASE, params: IdParamSchema, 200: json(ReleaseSchema, 'The release'), errors: [400, 404] }),
  listSources: sources.get('/release-sources', ADMIN, { summary: 'The release sources: the built-in providers (SystemAdmin)', 200: json(ReleaseSourceListSchema, 'The sources') }),
  pollAllSources: sources.post('/release-sources/poll-now-all', ADMIN, { summary: 'Poll every enabled source now (SystemAdmin)', description: 'Every tracked series becomes due; the cron-tick dispatcher queues them at each provider’s pace, starting after the response.', 202: json(PollAllNowSchema, 'Made due') }),
  updateSource: sources.patch('/release-sources/{id}', ADMIN, { summary: 'Enable, disable, rename or re-pace a source (SystemAdmin)', params: IdParamSchema, body: UpdateReleaseSourceBodySchema, 200: json(ReleaseSourceSchema, 'The source'), errors: [400, 404] }),
  pollSource: sources.post('/release-sources/{id}/poll-now', ADMIN, { summary: 'Poll a source now: every series it tracks (SystemAdmin)', description: '409 when the source is disabled.', params: IdParamSchema, 202: json(PollNowSchema, 'Made due and being queued'), errors: [400, 404, 409] }),
  resetSource: sources.post('/release-sources/{id}/reset', ADMIN, { summary: "Delete a source's releases and forget its poll state (SystemAdmin)", params: IdParamSchema, 200: json(ResetReleaseSourceSchema, 'How many releases went'), errors: [400, 404] }),
};
