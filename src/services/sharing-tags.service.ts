/**
 * Sharing tags (Codex-rs's name; Komga: sharing labels) and the series carrying them
 * (docs/DECISIONS.md §Organise and share). A series is reached through the caller's viewer, so a hidden
 * one is a 404 exactly like a missing one; tag counts count only series the caller sees. Setting a
 * series' tags through /api/v1 locks them (a rescan never changes them; tags do not come from files
 * today, but the lock is what /komga reports and edits).
 */
import { badRequest, conflict, notFound, savedUnlessTaken } from '../lib/errors';
import { newId, nowIso } from '../lib/ids';
import type { PageRequest } from '../lib/pagination';
import type {
  SharingLabelRecord,
  SharingLabelsRepository,
  SharingLabelWithCounts,
} from '../repositories/sharing-labels.repository';
import type { Viewer } from '../repositories/visibility';
import type { SeriesQueryService } from './series-query.service';

const NAME_TAKEN = 'A sharing tag with this name already exists';

export class SharingTagsService {
  constructor(
    private readonly labels: SharingLabelsRepository,
    private readonly series: SeriesQueryService,
  ) {}

  async list(viewer: Viewer, page: PageRequest): Promise<{ data: SharingLabelWithCounts[]; total: number }> {
    const { rows, total } = await this.labels.list(viewer, page.offset, page.pageSize);
    return { data: rows, total };
  }

  async get(viewer: Viewer, id: string): Promise<SharingLabelWithCounts> {
    const label = await this.labels.get(viewer, id);
    if (!label) throw notFound('Sharing tag');
    return label;
  }

  async create(viewer: Viewer, input: { name: string; description?: string | null }) {
    await this.assertNameFree(input.name);
    const now = nowIso();
    const id = newId();
    const row = { id, name: input.name, description: input.description ?? null, createdAt: now, updatedAt: now };
    await savedUnlessTaken(() => this.labels.create(row), NAME_TAKEN);
    return this.get(viewer, id);
  }

  async update(viewer: Viewer, id: string, input: { name?: string; description?: string | null }) {
    await this.get(viewer, id);
    if (input.name !== undefined) await this.assertNameFree(input.name, id);
    const changes: Parameters<SharingLabelsRepository['update']>[1] = { updatedAt: nowIso() };
    if (input.name !== undefined) changes.name = input.name;
    if (input.description !== undefined) changes.description = input.description;
    await savedUnlessTaken(() => this.labels.update(id, changes), NAME_TAKEN);
    return this.get(viewer, id);
  }

  /** Removes the tag from every series and user: what it hid or allowed changes from the next request. */
  async delete(id: string): Promise<void> {
    if (!(await this.labels.delete(id))) throw notFound('Sharing tag');
  }

  /** The tags of a series the viewer sees (404 otherwise). */
  async ofSeries(viewer: Viewer, seriesId: string): Promise<SharingLabelRecord[]> {
    await this.series.get(viewer, seriesId);
    return this.labels.ofSeries(seriesId);
  }

  /** Replaces a series' tags (and locks them); unknown tag ids are a 400 naming them, nothing changed. */
  async setForSeries(viewer: Viewer, seriesId: string, tagIds: readonly string[]): Promise<SharingLabelRecord[]> {
    await this.series.get(viewer, seriesId);
    await this.assertExist(tagIds, (i) => `sharingTagIds.${i}`);
    await this.labels.setForSeries(seriesId, tagIds, true);
    return this.labels.ofSeries(seriesId);
  }

  async addToSeries(viewer: Viewer, seriesId: string, tagId: string): Promise<SharingLabelRecord[]> {
    await this.series.get(viewer, seriesId);
    await this.assertExist([tagId], () => 'sharingTagId');
    await this.labels.addToSeries(seriesId, tagId);
    return this.labels.ofSeries(seriesId);
  }

  /** 404 when the series does not carry the tag. */
  async removeFromSeries(viewer: Viewer, seriesId: string, tagId: string): Promise<void> {
    await this.series.get(viewer, seriesId);
    if (!(await this.labels.removeFromSeries(seriesId, tagId))) throw notFound('Sharing tag on this series');
  }

  // ---- by name: Komga's sharing labels, free text (naming an unknown label creates it) ----

  /** The ids of tags with these names (ignoring case), creating the missing ones. */
  async idsNamed(names: readonly string[]): Promise<Map<string, string>> {
    const cleaned = names.map((n) => n.trim()).filter((n) => n.length > 0);
    return this.labels.ensureNamed(cleaned, nowIso());
  }

  /** Names (lower-case) of the tags on series the viewer sees, of some libraries when given. */
  async visibleNames(viewer: Viewer, libraryIds: readonly string[]): Promise<string[]> {
    return this.labels.visibleNames(viewer, libraryIds);
  }

  /**
   * Komga's series metadata PATCH, its sharing part: labels by name (replacing the series' labels) and the
   * age rating, each lock stored as sent. The series must be one the viewer sees (404).
   */
  async editSeriesContent(
    viewer: Viewer,
    seriesId: string,
    edit: { sharingLabels?: string[]; sharingLabelsLock?: boolean; ageRating?: number | null; ageRatingLock?: boolean },
  ): Promise<void> {
    await this.series.get(viewer, seriesId);
    const labelIds =
      edit.sharingLabels === undefined ? undefined : [...(await this.idsNamed(edit.sharingLabels)).values()];
    await this.labels.setForSeries(seriesId, labelIds, edit.sharingLabelsLock);
    await this.labels.setSeriesAgeRating(seriesId, { ageRating: edit.ageRating, lock: edit.ageRatingLock });
  }

  private async assertExist(ids: readonly string[], path: (index: number) => string): Promise<void> {
    const known = await this.labels.existingIds(ids);
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length > 0) {
      throw badRequest(
        `Unknown sharing tag ids: ${[...new Set(unknown)].join(', ')}`,
        ids.flatMap((id, i) => (known.has(id) ? [] : [{ path: path(i), message: `no sharing tag ${id}` }])),
      );
    }
  }

  private async assertNameFree(name: string, exceptId?: string): Promise<void> {
    if (await this.labels.named(name, exceptId)) {
      throw conflict(NAME_TAKEN, [{ path: 'name', message: 'is already taken' }]);
    }
  }
}
