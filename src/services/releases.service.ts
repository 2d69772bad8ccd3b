/**
 * The release inbox and ledger (issue 32; Codex-rs `handlers/releases.rs`): the releases of series the caller
 * may see — across series (`/releases`, announced by default) or of one series — and their states, changed one
 * by one or in bulk. A release of a series the caller may not see answers as an unknown one, and bulk actions
 * skip it (their count says how many changed).
 */
import { notFound } from '../lib/errors';
import type { PageRequest } from '../lib/pagination';
import type { EventPublisher } from '../events/events';
import type {
  InboxFilter,
  InboxSort,
  ReleaseLedgerRepository,
  ReleaseRow,
  ReleaseState,
} from '../repositories/release-ledger.repository';
import type { Viewer } from '../repositories/visibility';
import type { ReleaseDto } from '../schemas/release.schema';
import type { ListResult } from './catalog-list';

/** The wire's states are the ledger's, both ways (a compile-time check). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const statesAgree: Same<ReleaseState, ReleaseDto['state']> = true;
void statesAgree;

export type BulkReleaseAction = 'dismiss' | 'mark-acquired' | 'ignore' | 'reset' | 'delete';

const STATE_OF: Record<Exclude<BulkReleaseAction, 'delete'>, ReleaseState> = {
  dismiss: 'dismissed',
  'mark-acquired': 'marked_acquired',
  ignore: 'ignored',
  reset: 'announced',
};

export interface InboxQuery {
  state?: ReleaseState | 'all';
  seriesId?: string;
  sourceId?: string;
  libraryId?: string;
  language?: string;
  sort?: string;
}

const span = (start: number | null, end: number | null) => (end === null ? null : [{ start: start ?? end, end }]);

export function toReleaseDto(row: ReleaseRow): ReleaseDto {
  return {
    id: row.id,
    seriesId: row.seriesId,
    seriesTitle: row.seriesTitle,
    sourceId: row.sourceId,
    externalReleaseId: row.externalReleaseId,
    chapters: span(row.chapterStart, row.chapter),
    volumes: span(row.volumeStart, row.volume),
    language: row.language,
    groupOrUploader: row.groupOrUploader,
    payloadUrl: row.payloadUrl,
    confidence: row.confidence,
    state: row.state,
    metadata: row.metadata,
    observedAt: row.observedAt,
    releasedAt: row.releasedAt,
    createdAt: row.createdAt,
  };
}

/** `series`, `observed,desc`…: Codex-rs's sort, ascending unless said. */
function sortOf(text: string | undefined, fallback: InboxSort): InboxSort {
  if (!text) return fallback;
  const [field, direction] = text.split(',') as [InboxSort['field'], InboxSort['direction'] | undefined];
  return { field, direction: direction ?? 'asc' };
}

export class ReleasesService {
  constructor(
    private readonly ledger: ReleaseLedgerRepository,
    private readonly events: EventPublisher,
  ) {}

  /** The inbox: announced releases unless another state (or `all`) is asked for; by series title by default. */
  async inbox(viewer: Viewer, query: InboxQuery, page: PageRequest): Promise<ListResult<ReleaseDto>> {
    const filter: InboxFilter = {
      state: query.state ?? 'announced',
      seriesId: query.seriesId,
      sourceId: query.sourceId,
      libraryId: query.libraryId,
      language: query.language,
    };
    const { rows, total } = await this.ledger.inbox(
      viewer,
      filter,
      sortOf(query.sort, { field: 'series', direction: 'asc' }),
      page.pageSize,
      page.offset,
    );
    return { data: rows.map(toReleaseDto), total };
  }

  /** One series' ledger, every state unless one is asked for, newest first. */
  async ofSeries(
    viewer: Viewer,
    seriesId: string,
    query: { state?: ReleaseState | 'all' },
    page: PageRequest,
  ): Promise<ListResult<ReleaseDto>> {
    const found = await this.ledger.ofSeries(
      viewer,
      seriesId,
      { state: query.state ?? 'all' },
      { field: 'observed', direction: 'desc' },
      page.pageSize,
      page.offset,
    );
    if (!found) throw notFound('Series');
    return { data: found.rows.map(toReleaseDto), total: found.total };
  }

  async setState(viewer: Viewer, id: string, state: ReleaseState): Promise<ReleaseDto> {
    const { changed, first } = await this.ledger.setState(viewer, [id], state);
    if (changed.length === 0 || !first) throw notFound('Release');
    this.announceChange(changed, first);
    return toReleaseDto(first);
  }

  /** Deletes a release; the next poll records it again, announced. */
  async delete(viewer: Viewer, id: string): Promise<{ deleted: boolean }> {
    const gone = await this.ledger.delete(viewer, [id]);
    if (gone.length === 0) throw notFound('Release');
    return { deleted: true };
  }

  async bulk(viewer: Viewer, ids: string[], action: BulkReleaseAction) {
    const affected =
      action === 'delete'
        ? (await this.ledger.delete(viewer, ids)).length
        : (await this.ledger.setState(viewer, ids, STATE_OF[action])).changed.length;
    return { affected, action };
  }

  /** Other clients' inbox counts and series panels refresh (Codex-rs emits SeriesUpdated with `releases`). */
  private announceChange(changed: Array<{ seriesId: string }>, first: ReleaseRow): void {
    if (changed.length > 0) {
      this.events.publish({ type: 'series_updated', series_id: first.seriesId, library_id: first.libraryId });
    }
  }
}
