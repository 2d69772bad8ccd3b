/**
 * Sharing tags (Codex-rs's name; Komga: sharing labels) and the series carrying them
 * (docs/DECISIONS.md §Organise and share). A series is reached through the caller's viewer, so a hidden
 * one is a 404 exactly like a missing one; tag counts count only series the caller sees. Setting a
 * series' tags through /api/v1 locks them (a rescan never changes them; tags do not come from files
 * today, but the lock is what /komga reports and edits).
 *
 * What a series carries decides who sees it, so changing its tags or its age rating is user
 * administration: it needs `UsersWrite` (docs/DECISIONS.md §Administration), checked here for every
 * caller, whatever its route asked for.
 */
import type { Principal } from '../auth/principal';
import { satisfies } from '../auth/permissions';
import { badRequest, conflict, forbidden, notFound, savedUnlessTaken } from '../lib/errors';
import { newId, nowIso } from '../lib/ids';
import type { PageRequest } from '../lib/pagination';
import type {
  SharingLabelRecord,
  SharingLabelsRepository,
  SharingLabelWithCounts,
} from '../repositories/sharing-labels.repository';
import type { CatalogWriter, Statement } from '../repositories/catalog-writer.repository';
import { type Viewer, viewerOf } from '../repositories/visibility';
import type { SeriesQueryService } from './series-query.service';

/** The sharing part of Komga's series metadata PATCH: labels by name, the age rating, each lock as sent. */
export interface SeriesContentEdit {
  sharingLabels?: string[];
  sharingLabelsLock?: boolean;
  ageRating?: number | null;
  ageRatingLock?: boolean;
}

const ADMINISTERS = 'UsersWrite';

function assertAdministers(actor: Principal): void {
  if (!satisfies(actor.permissions, ADMINISTERS)) {
    throw forbidden(`Missing permission: ${ADMINISTERS} (sharing tags and age ratings decide who sees a series)`);
  }
}

const labelKey = (name: string) => name.trim().toLowerCase();
/** Tag names as stored: trimmed, none empty. */
const cleanNames = (names: readonly string[]) => names.map((name) => name.trim()).filter((name) => name.length > 0);
const NAME_TAKEN = 'A sharing tag with this name already exists';

export class SharingTagsService {
  constructor(
    private readonly labels: SharingLabelsRepository,
    private readonly series: SeriesQueryService,
    private readonly writer: CatalogWriter,
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
    await this.series.assertExists(viewer, seriesId);
    return this.labels.ofSeries(seriesId);
  }

  /** Replaces a series' tags (and locks them); unknown tag ids are a 400 naming them, nothing changed. */
  async setForSeries(actor: Principal, seriesId: string, tagIds: readonly string[]): Promise<SharingLabelRecord[]> {
    await this.series.assertExists(viewerOf(actor), seriesId);
    assertAdministers(actor);
    await this.assertExist(tagIds, (i) => `sharingTagIds.${i}`);
    await this.labels.setForSeries(seriesId, tagIds, true);
    return this.labels.ofSeries(seriesId);
  }

  async addToSeries(actor: Principal, seriesId: string, tagId: string): Promise<SharingLabelRecord[]> {
    await this.series.assertExists(viewerOf(actor), seriesId);
    assertAdministers(actor);
    await this.assertExist([tagId], () => 'sharingTagId');
    await this.labels.addToSeries(seriesId, tagId);
    return this.labels.ofSeries(seriesId);
  }

  /** 404 when the series does not carry the tag. */
  async removeFromSeries(actor: Principal, seriesId: string, tagId: string): Promise<void> {
    await this.series.assertExists(viewerOf(actor), seriesId);
    assertAdministers(actor);
    if (!(await this.labels.removeFromSeries(seriesId, tagId))) throw notFound('Sharing tag on this series');
  }

  // ---- by name: Komga's sharing labels, free text (naming an unknown label creates it) ----

  /** The ids of tags with these names (ignoring case), creating the missing ones. */
  async idsNamed(names: readonly string[]): Promise<Map<string, string>> {
    return this.labels.ensureNamed(cleanNames(names), nowIso());
  }

  /** The ids of the tags with these names that exist (ignoring case), by lower-cased name. Reads only. */
  async existingIdsNamed(names: readonly string[]): Promise<Map<string, string>> {
    return this.labels.idsNamed(cleanNames(names));
  }

  /**
   * `editSeriesContent` by an actor that administers, as statements for the caller's own batch (an import's: its
   * series are ones the actor sees, already read): the tags not in `known` (`existingIdsNamed`, read beforehand)
   * created, then each series' tags and rating with their locks. 403 without `UsersWrite`.
   */
  seriesContentStatements(
    actor: Principal,
    edits: ReadonlyArray<{ seriesId: string; edit: SeriesContentEdit }>,
    known: ReadonlyMap<string, string>,
    now: string,
  ): Statement[] {
    if (edits.length === 0) return [];
    assertAdministers(actor);
    const { ids, statements } = this.labels.creation(
      cleanNames(edits.flatMap(({ edit }) => edit.sharingLabels ?? [])),
      known,
      now,
    );
    for (const { seriesId, edit } of edits) {
      const labelIds =
        edit.sharingLabels && cleanNames(edit.sharingLabels).map((name) => ids.get(labelKey(name)) as string);
      statements.push(
        ...this.labels.settingForSeries(seriesId, labelIds, edit.sharingLabelsLock),
        ...this.writer.seriesAgeRatingStatements(seriesId, { ageRating: edit.ageRating, lock: edit.ageRatingLock }),
      );
    }
    return statements;
  }

  /** Names (lower-case) of the tags on series the viewer sees, of some libraries when given. */
  async visibleNames(viewer: Viewer, libraryIds: readonly string[]): Promise<string[]> {
    return this.labels.visibleNames(viewer, libraryIds);
  }

  /**
   * Komga's series metadata PATCH, its sharing part: labels by name (replacing the series' labels) and the
   * age rating, each lock stored as sent; a series left with its rating unlocked is rated from its books
   * (the value sent is not kept: docs/DECISIONS.md §Enforcement). The series must be one the actor sees
   * (404). An edit that changes something needs `UsersWrite` (403, nothing written); one that changes
   * nothing — what Komf sends as a maintainer: its reset's `ageRating: null` unlocked, or the stored
   * values back — is accepted from anyone and writes nothing. Answers whether it wrote. `/api/v1`'s series
   * metadata PATCH and locks PUT (MetadataService) edit the age rating through here too.
   */
  async editSeriesContent(actor: Principal, seriesId: string, edit: SeriesContentEdit): Promise<boolean> {
    await this.series.assertExists(viewerOf(actor), seriesId);
    if (!satisfies(actor.permissions, ADMINISTERS)) {
      if (await this.changes(seriesId, edit)) assertAdministers(actor);
      return false;
    }
    const labelIds =
      edit.sharingLabels === undefined ? undefined : [...(await this.idsNamed(edit.sharingLabels)).values()];
    await this.labels.setForSeries(seriesId, labelIds, edit.sharingLabelsLock);
    await this.writer.editSeriesAgeRating(seriesId, { ageRating: edit.ageRating, lock: edit.ageRatingLock });
    return true;
  }

  /** Whether the edit would change what the series carries (its labels, rating or their locks). */
  private async changes(seriesId: string, edit: SeriesContentEdit): Promise<boolean> {
    const stored = await this.labels.seriesSharing(seriesId);
    if (!stored) return true;
    if (edit.sharingLabelsLock !== undefined && edit.sharingLabelsLock !== stored.sharingLabelsLock) return true;
    if (edit.ageRatingLock !== undefined && edit.ageRatingLock !== stored.ageRatingLock) return true;
    // An unlocked rating is the books', whatever is sent: only a locked one can be changed by a value.
    const locked = edit.ageRatingLock ?? stored.ageRatingLock;
    if (locked && edit.ageRating !== undefined && edit.ageRating !== stored.ageRating) return true;
    if (edit.sharingLabels !== undefined) {
      const wanted = new Set(edit.sharingLabels.map(labelKey).filter((name) => name.length > 0));
      const held = new Set((await this.labels.ofSeries(seriesId)).map((label) => labelKey(label.name)));
      if (wanted.size !== held.size || [...wanted].some((name) => !held.has(name))) return true;
    }
    return false;
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
