/**
 * The release sources, for admins (issue 32; Codex-rs's source admin routes): list them with how their polls
 * stand, enable or disable one, change its interval, poll it now (every series it tracks becomes due and is
 * queued at the provider's pace, after the response), reset it.
 */
import { conflict, notFound } from '../lib/errors';
import type { Defer } from '../lib/deferred-work';
import { nowIso } from '../lib/ids';
import type { ReleaseSourcesRepository, SourceChanges, SourceRow } from '../repositories/release-sources.repository';
import type { ReleaseSourceDto } from '../schemas/release.schema';

/** Queues due polls after the response (src/releases/poll-dispatch.ts `dispatchDuePolls`). */
export type DuePollDispatch = () => Promise<number>;

export function toSourceDto(row: SourceRow): ReleaseSourceDto {
  return {
    id: row.id,
    pluginId: row.provider,
    sourceKey: row.sourceKey,
    displayName: row.displayName,
    kind: row.kind,
    enabled: row.enabled,
    pollIntervalS: row.pollIntervalS,
    status: row.lastError ? 'errored' : row.lastPolledAt ? 'ok' : 'never_polled',
    lastPolledAt: row.lastPolledAt,
    lastError: row.lastError,
    lastErrorAt: row.lastErrorAt,
    lastSummary: row.lastSummary,
    backoffUntil: row.backoffUntil,
    trackedSeries: row.trackedSeries,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export class ReleaseSourcesService {
  constructor(
    private readonly sources: ReleaseSourcesRepository,
    private readonly dispatchDue: DuePollDispatch,
    private readonly defer: Defer,
  ) {}

  async list() {
    return { sources: (await this.sources.list()).map(toSourceDto) };
  }

  async update(id: string, changes: SourceChanges): Promise<ReleaseSourceDto> {
    const row = await this.sources.update(id, changes, nowIso());
    if (!row) throw notFound('Release source');
    return toSourceDto(row);
  }

  /** Makes every series of the source due and queues them after the response (409 when it is disabled). */
  async pollNow(id: string) {
    const { sources, due } = await this.sources.makeDue(id, nowIso());
    const source = sources[0];
    if (!source) throw notFound('Release source');
    if (!source.enabled) throw conflict(`Source '${source.displayName}' is disabled; enable it before polling`);
    this.defer(() => this.dispatchDue());
    return {
      status: 'enqueued' as const,
      message: `${due} tracked series of ${source.displayName} are due now and being queued`,
      polls: due,
    };
  }

  /** Poll-now for every enabled source. */
  async pollNowAll() {
    const { sources } = await this.sources.makeDue(undefined, nowIso());
    const enabled = sources.filter((s) => s.enabled);
    if (enabled.length > 0) this.defer(() => this.dispatchDue());
    return { considered: enabled.length, enqueued: enabled.length, coalesced: 0, failed: 0 };
  }

  async reset(id: string) {
    const result = await this.sources.reset(id, nowIso());
    if (!result) throw notFound('Release source');
    return { deletedLedgerEntries: result.deleted };
  }
}
