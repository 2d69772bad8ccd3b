/**
 * A series' release tracking (issue 32; Codex-rs `handlers/tracking.rs` and the external-id routes of
 * `handlers/series.rs`): read it, turn it on or off and tune it, its aliases and its ids at the providers, and
 * poll it now. Turning tracking on seeds it from the series (Codex-rs's `seed_tracking_for_series`): aliases
 * from its titles, provider ids from its and its books' web links, the high-water marks at what the library
 * holds, and which axes to track from how its books are numbered — the request's own values win. A series the
 * caller may not see is a 404, as an unknown one.
 */
import { badRequest, conflict, notFound } from '../lib/errors';
import { nowIso } from '../lib/ids';
import type { EventPublisher } from '../events/events';
import { externalIdsFromLinks, resolveExternalId } from '../releases/external-ids';
import { normalizeTitle } from '../releases/names';
import type { Defer } from '../lib/deferred-work';
import { pollLeaseUntil } from '../releases/poll-dispatch';
import type { ClaimedPoll } from '../repositories/release-polls.repository';
import type {
  AliasRow,
  ExternalIdRow,
  SeriesTrackingRepository,
  TrackedSeries,
  TrackingChange,
  TrackingValues,
  TrackingView,
} from '../repositories/series-tracking.repository';
import type { Viewer } from '../repositories/visibility';
import type { SeriesTrackingDto, UpdateSeriesTrackingBody } from '../schemas/release.schema';

/** What a virtual (never-written) tracking row shows for its times, as Codex-rs does. */
const EPOCH = new Date(0).toISOString();

/** Queues claimed polls (src/releases/poll-dispatch.ts `queueClaimedPolls`). */
export type ClaimedPollQueue = (claimed: readonly ClaimedPoll[]) => Promise<void>;

export function toTrackingDto(view: TrackingView): SeriesTrackingDto {
  const t = view.tracking;
  const idOf = (provider: string) => view.externalIds.find((e) => e.source === provider)?.externalId;
  return {
    seriesId: view.series.id,
    tracked: t?.tracked ?? false,
    trackChapters: t?.chapterTracking ?? true,
    trackVolumes: t?.volumeTracking ?? true,
    latestKnownChapter: t?.latestKnownChapter ?? null,
    latestKnownVolume: t?.latestKnownVolume ?? null,
    pollIntervalOverrideS: t?.pollIntervalOverrideS ?? null,
    languages: t?.languages ?? null,
    upstreamProvider: t?.providerName ?? null,
    upstreamChapterCount: t?.providerChapterCount ?? null,
    upstreamVolumeCount: t?.providerVolumeCount ?? null,
    upstreamStatus: t?.providerStatus ?? null,
    sources: view.polls.map((p) => ({
      sourceId: p.sourceId,
      pluginId: p.provider,
      displayName: p.displayName,
      enabled: p.enabled,
      externalId: idOf(p.provider) ?? p.matchedId,
      nextPollAt: p.nextPollAt,
      lastPolledAt: p.lastPolledAt,
      lastError: p.lastError,
      chapterCount: p.chapterCount,
      volumeCount: p.volumeCount,
      status: p.status,
    })),
    createdAt: t?.createdAt || EPOCH,
    updatedAt: t?.updatedAt || EPOCH,
  };
}

export const toAliasDto = (row: AliasRow) => ({
  id: row.id,
  seriesId: row.seriesId,
  alias: row.alias,
  normalized: row.normalized,
  source: row.source,
  createdAt: row.createdAt,
});

export const toExternalIdDto = (row: ExternalIdRow) => ({
  id: row.id,
  seriesId: row.seriesId,
  source: row.source,
  externalId: row.externalId,
  externalUrl: row.externalUrl,
  origin: row.origin,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

export class TrackingService {
  constructor(
    private readonly repository: SeriesTrackingRepository,
    private readonly events: EventPublisher,
    private readonly queuePolls: ClaimedPollQueue,
    private readonly defer: Defer,
  ) {}

  async get(viewer: Viewer, seriesId: string): Promise<SeriesTrackingDto> {
    return toTrackingDto(await this.visible(viewer, seriesId));
  }

  /**
   * The series and what seeding needs are read beside the credential check (the route is `checked-writes`);
   * the change waits for it (`checked`) and is one batch.
   */
  async update(
    viewer: Viewer,
    seriesId: string,
    body: UpdateSeriesTrackingBody,
    checked: () => Promise<void>,
  ): Promise<SeriesTrackingDto> {
    const current = await this.repository.viewWithSeedInputs(viewer, seriesId);
    if (!current) throw notFound('Series');
    const was = current.tracking;
    const turningOn = body.tracked === true && !was?.tracked;
    const turningOff = body.tracked === false && was?.tracked === true;
    const { localMaxChapter, localMaxVolume } = current.series;
    // Which axes the books use: a series numbered by volume only tracks volumes (both when neither is known).
    const numbered = localMaxChapter !== null || localMaxVolume !== null;
    const pick = <T>(sent: T | undefined, seeded: T, kept: T): T =>
      sent !== undefined ? sent : turningOn ? seeded : kept;
    const values: TrackingValues = {
      tracked: body.tracked ?? was?.tracked ?? false,
      chapterTracking: pick(
        body.trackChapters,
        numbered ? localMaxChapter !== null : true,
        was?.chapterTracking ?? true,
      ),
      volumeTracking: pick(body.trackVolumes, numbered ? localMaxVolume !== null : true, was?.volumeTracking ?? true),
      latestKnownChapter: pick(body.latestKnownChapter, localMaxChapter, was?.latestKnownChapter ?? null),
      latestKnownVolume: pick(body.latestKnownVolume, localMaxVolume, was?.latestKnownVolume ?? null),
      languages: body.languages !== undefined ? body.languages : (was?.languages ?? null),
      pollIntervalOverrideS:
        body.pollIntervalOverrideS !== undefined ? body.pollIntervalOverrideS : (was?.pollIntervalOverrideS ?? null),
    };
    const change: TrackingChange = {
      values,
      seedAliases: turningOn ? this.seedAliases(current) : [],
      seedExternalIds: turningOn ? this.seedExternalIds(current) : [],
      polls: turningOn ? 'start' : turningOff ? 'stop' : 'keep',
      now: nowIso(),
    };
    await checked();
    const view = await this.repository.change(viewer, seriesId, change);
    this.changed(view.series);
    return toTrackingDto(view);
  }

  async aliases(viewer: Viewer, seriesId: string) {
    return { aliases: (await this.visible(viewer, seriesId)).aliases.map(toAliasDto) };
  }

  /** Adds a manual alias (idempotent: an alias normalizing to one the series has is answered as it is). */
  async addAlias(viewer: Viewer, seriesId: string, body: { alias: string; source?: AliasRow['source'] }) {
    const normalized = normalizeTitle(body.alias);
    if (!normalized) {
      throw badRequest('The alias has no letters or digits', [
        { path: 'alias', message: 'must contain a letter or digit' },
      ]);
    }
    const added = await this.repository.addAlias(
      viewer,
      seriesId,
      { alias: body.alias, normalized, source: body.source ?? 'manual' },
      nowIso(),
    );
    if (!added) throw notFound('Series');
    if (added.created) this.changed(added.series);
    return { created: added.created, alias: toAliasDto(added.alias) };
  }

  async deleteAlias(viewer: Viewer, seriesId: string, aliasId: string): Promise<void> {
    const result = await this.repository.deleteAlias(viewer, seriesId, aliasId);
    if (!result) throw notFound('Series');
    if (!result.removed) throw notFound('Alias');
    this.changed(result.series);
  }

  async externalIds(viewer: Viewer, seriesId: string) {
    return { externalIds: (await this.visible(viewer, seriesId)).externalIds.map(toExternalIdDto) };
  }

  /** Sets the series' id at a provider (a 400 names `source` or `externalId` when either is wrong). */
  async setExternalId(
    viewer: Viewer,
    seriesId: string,
    body: { source: string; externalId: string; externalUrl?: string | null },
  ) {
    const resolved = resolveExternalId(body);
    const result = await this.repository.setExternalId(
      viewer,
      seriesId,
      {
        source: resolved.provider.key,
        externalId: resolved.externalId,
        externalUrl: resolved.externalUrl,
        origin: 'manual',
      },
      nowIso(),
    );
    if (!result) throw notFound('Series');
    this.changed(result.series);
    return toExternalIdDto(result.saved);
  }

  async deleteExternalId(viewer: Viewer, seriesId: string, externalIdId: string): Promise<void> {
    const result = await this.repository.deleteExternalId(viewer, seriesId, externalIdId);
    if (!result) throw notFound('Series');
    if (!result.removed) throw notFound('External id');
    this.changed(result.series);
  }

  /**
   * Claims the series' poll at every enabled source now (409 when it is not tracked), with the read that tells;
   * the claimed polls are queued after the answer. A send that fails leaves them leased: they are due again
   * when the lease ends (src/releases/poll-dispatch.ts), as a lost message's are.
   */
  async pollNow(viewer: Viewer, seriesId: string) {
    const at = new Date();
    const result = await this.repository.claimPolls(viewer, seriesId, pollLeaseUntil(at));
    if (!result) throw notFound('Series');
    if (!result.view.tracking?.tracked) throw conflict('The series is not tracked: turn tracking on first');
    const { claimed } = result;
    if (claimed.length > 0) this.defer(() => this.queuePolls(claimed));
    const polls = claimed.length;
    return { status: 'enqueued' as const, message: `Queued ${polls} poll${polls === 1 ? '' : 's'}`, polls };
  }

  private async visible(viewer: Viewer, seriesId: string): Promise<TrackingView> {
    const view = await this.repository.view(viewer, seriesId);
    if (!view) throw notFound('Series');
    return view;
  }

  private changed(series: TrackedSeries): void {
    this.events.publish({ type: 'series_updated', series_id: series.id, library_id: series.libraryId });
  }

  /** The series' titles as aliases (one per normalized form; those it has are kept). */
  private seedAliases(view: TrackingView & { seed: { titleSort: string; alternateTitles: string[] } }) {
    const have = new Set(view.aliases.map((a) => a.normalized));
    const seeds: Array<{ alias: string; normalized: string }> = [];
    for (const alias of [view.series.title, view.seed.titleSort, ...view.seed.alternateTitles]) {
      const normalized = normalizeTitle(alias);
      if (!normalized || have.has(normalized)) continue;
      have.add(normalized);
      seeds.push({ alias: alias.trim(), normalized });
    }
    return seeds;
  }

  /** Provider ids the series' and its books' web links name, for providers it has no id of yet. */
  private seedExternalIds(view: TrackingView & { seed: { links: string[] } }) {
    const have = new Set(view.externalIds.map((e) => e.source));
    return externalIdsFromLinks(view.seed.links)
      .filter((found) => !have.has(found.provider.key))
      .map((found) => ({ source: found.provider.key, externalId: found.externalId, externalUrl: found.externalUrl }));
  }
}
