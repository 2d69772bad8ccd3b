/**
 * Collections (docs/DECISIONS.md §Organise and share, §Collections and read lists): sets of series shared by
 * everyone, written by maintainers; and smart collections, a saved series or book list request evaluated for
 * each reader on every read through the same list services as `POST /series/list` and `POST /books/list`.
 * Every read and write is for a viewer: hidden members are left out of what is shown and kept in place by edits.
 */
import { parseCondition } from '../catalog/filters';
import { parseSort } from '../catalog/sort';
import type { EventPublisher } from '../events/events';
import { badRequest, conflict, notFound } from '../lib/errors';
import { newId, nowIso } from '../lib/ids';
import type { PageRequest } from '../lib/pagination';
import { checkMemberIds, replaceVisibleMembers } from '../lists/members';
import { toCollectionDto } from '../mappers/lists.mapper';
import { toSeriesDto } from '../mappers/series.mapper';
import { BOOK_SORT_FIELDS } from '../repositories/books.repository';
import { BOOK_FILTER_FIELDS, SERIES_FILTER_FIELDS } from '../repositories/catalog-filters';
import type {
  CollectionChanges,
  CollectionRecord,
  CollectionRow,
  CollectionsRepository,
  SmartRule,
} from '../repositories/collections.repository';
import {
  COLLECTION_ORDER,
  SERIES_SORT_FIELDS,
  type SeriesRepository,
  seriesSortKeys,
} from '../repositories/series.repository';
import type { Viewer } from '../repositories/visibility';
import type { BookDto } from '../schemas/book.schema';
import type { CollectionDto, CreateCollectionBody, UpdateCollectionBody } from '../schemas/lists.schema';
import type { SeriesDto } from '../schemas/series.schema';
import type { BookQueryService } from './book-query.service';
import type { ListResult } from './catalog-list';
import type { SeriesQueryService } from './series-query.service';

/** Members read at once for Komga's `seriesIds` and the events of a smart collection (a bounded list). */
export const SMART_MEMBERS_LIMIT = 10_000;

export interface CollectionsDeps {
  collections: CollectionsRepository;
  series: SeriesRepository;
  seriesQuery: SeriesQueryService;
  bookQuery: BookQueryService;
  events: EventPublisher;
}

/** The rule fields of a body, as a smart rule; undefined when the body says nothing about a rule. */
type RuleFields = Pick<UpdateCollectionBody, 'condition' | 'target' | 'fullTextSearch' | 'sort'>;

export class CollectionsService {
  constructor(private readonly deps: CollectionsDeps) {}

  async list(
    viewer: Viewer,
    query: { libraryIds?: readonly string[]; search?: string; pinned?: boolean },
    page: PageRequest,
  ): Promise<ListResult<CollectionDto>> {
    const { rows, total } = await this.rows(viewer, query, page);
    return { data: rows.map(toCollectionDto), total };
  }

  /** A page of the collections the viewer may see, as rows (the Komga API shows them its own way). */
  rows(
    viewer: Viewer,
    query: { libraryIds?: readonly string[]; search?: string; pinned?: boolean },
    page: PageRequest,
  ) {
    return this.deps.collections.list(viewer, { ...query, limit: page.pageSize, offset: page.offset });
  }

  /** Every collection holding a series, as rows (404 when the series is unknown or hidden). */
  async rowsOfSeries(viewer: Viewer, seriesId: string) {
    if (!(await this.deps.series.exists(viewer, seriesId))) throw notFound('Series');
    return this.deps.collections.ofSeries(viewer, seriesId, SMART_MEMBERS_LIMIT, 0);
  }

  async get(viewer: Viewer, id: string): Promise<CollectionDto> {
    return toCollectionDto(await this.row(viewer, id));
  }

  /** The collections holding a series (404 when the series is unknown or hidden). */
  async ofSeries(viewer: Viewer, seriesId: string, page: PageRequest): Promise<ListResult<CollectionDto>> {
    if (!(await this.deps.series.exists(viewer, seriesId))) throw notFound('Series');
    const { rows, total } = await this.deps.collections.ofSeries(viewer, seriesId, page.pageSize, page.offset);
    return { data: rows.map(toCollectionDto), total };
  }

  async create(viewer: Viewer, body: CreateCollectionBody): Promise<CollectionDto> {
    const rule = ruleOf(body, null);
    const seriesIds = body.seriesIds ?? [];
    if (rule && seriesIds.length > 0) {
      throw badRequest('A smart collection has no series of its own: send seriesIds or a condition, not both', [
        { path: 'seriesIds', message: 'not allowed with a condition' },
      ]);
    }
    await this.assertNameFree(body.name);
    await this.checkSeries(viewer, seriesIds);
    const id = newId();
    const now = nowIso();
    const { collections } = this.deps;
    await collections
      .run([
        collections.create({
          id,
          name: body.name,
          summary: body.summary ?? null,
          ordered: body.ordered ?? false,
          rule,
          pinnedToHome: body.pinnedToHome ?? false,
          createdAt: now,
          updatedAt: now,
        }),
        ...collections.members.replace(id, seriesIds),
      ])
      .catch(rethrowDuplicateName);
    this.publish('collection_created', id, seriesIds);
    return this.get(viewer, id);
  }

  async update(viewer: Viewer, id: string, body: UpdateCollectionBody): Promise<CollectionDto> {
    const current = await this.row(viewer, id);
    const changes: CollectionChanges = { updatedAt: nowIso() };
    if (body.name !== undefined && body.name !== current.name) {
      await this.assertNameFree(body.name, id);
      changes.name = body.name;
    }
    if (body.summary !== undefined) changes.summary = body.summary;
    if (body.ordered !== undefined) changes.ordered = body.ordered;
    if (body.pinnedToHome !== undefined) changes.pinnedToHome = body.pinnedToHome;
    const ruleTouched = ['condition', 'target', 'fullTextSearch', 'sort'].some(
      (key) => body[key as keyof RuleFields] !== undefined,
    );
    if (ruleTouched) {
      changes.rule = ruleOf(body, current.rule);
      if (changes.rule && !current.rule && current.memberCount > 0) {
        throw conflict('The collection has series of its own: remove them before giving it a condition');
      }
    }
    await this.deps.collections.run([this.deps.collections.update(id, changes)]).catch(rethrowDuplicateName);
    this.publish('collection_updated', id, await this.deps.collections.members.all(id));
    return this.get(viewer, id);
  }

  async delete(viewer: Viewer, id: string): Promise<void> {
    await this.row(viewer, id);
    const members = await this.deps.collections.members.all(id);
    await this.deps.collections.run(this.deps.collections.delete(id));
    this.publish('collection_deleted', id, members);
  }

  /** The collection's series the viewer may see: its own order (or by name), or its rule's list. */
  async series(viewer: Viewer, id: string, page: PageRequest): Promise<ListResult<SeriesDto>> {
    const collection = await this.record(viewer, id);
    const { rule } = collection;
    if (rule?.target === 'books') throw conflict('This smart collection lists books: GET …/books');
    if (rule) {
      return this.deps.seriesQuery.list(viewer, { sort: rule.sort ?? undefined }, page, {
        condition: rule.condition ?? undefined,
        fullTextSearch: rule.fullTextSearch ?? undefined,
      });
    }
    const keys = collection.ordered ? COLLECTION_ORDER : seriesSortKeys('name', 'asc', viewer);
    const { rows, total } = await this.deps.series.listInCollection(viewer, id, {
      keys,
      limit: page.pageSize,
      offset: page.offset,
    });
    return { data: rows.map(toSeriesDto), total };
  }

  /** A smart collection of books: its rule's book list for the viewer. */
  async books(viewer: Viewer, id: string, page: PageRequest): Promise<ListResult<BookDto>> {
    const { rule } = await this.record(viewer, id);
    if (rule?.target !== 'books') throw conflict('This collection holds series: GET …/series');
    return this.deps.bookQuery.list(viewer, { sort: rule.sort ?? undefined }, page, {
      condition: rule.condition ?? undefined,
      fullTextSearch: rule.fullTextSearch ?? undefined,
    });
  }

  /** Adds series after the last one; series already there keep their place. */
  async addSeries(viewer: Viewer, id: string, seriesIds: string[]): Promise<CollectionDto> {
    await this.manual(viewer, id);
    if (seriesIds.length === 0)
      throw badRequest('seriesIds must name at least one series', [{ path: 'seriesIds', message: 'empty' }]);
    await this.checkSeries(viewer, seriesIds);
    const { collections } = this.deps;
    await collections.run([
      ...collections.members.append(id, seriesIds),
      collections.update(id, { updatedAt: nowIso() }),
    ]);
    this.publish('collection_updated', id, await collections.members.all(id));
    return this.get(viewer, id);
  }

  /**
   * The series the viewer sees become `seriesIds`, in that order (Komga's PATCH and Codex-rs's PUT): series
   * hidden from the viewer stay where they are (docs/DECISIONS.md §Organise and share).
   */
  async replaceSeries(viewer: Viewer, id: string, seriesIds: string[]): Promise<CollectionDto> {
    await this.manual(viewer, id);
    await this.checkSeries(viewer, seriesIds);
    const { collections, series } = this.deps;
    const current = await collections.members.all(id);
    const visible = await series.visibleIds(viewer, current);
    const members = replaceVisibleMembers(current, (member) => !visible.has(member), seriesIds);
    await collections.run([
      ...collections.members.replace(id, members),
      collections.update(id, { updatedAt: nowIso() }),
    ]);
    this.publish('collection_updated', id, members);
    return this.get(viewer, id);
  }

  async removeSeries(viewer: Viewer, id: string, seriesId: string): Promise<void> {
    await this.manual(viewer, id);
    const { collections } = this.deps;
    if (!(await this.deps.series.exists(viewer, seriesId)) || !(await collections.members.all(id)).includes(seriesId)) {
      throw notFound('Series in this collection');
    }
    await collections.run([collections.members.remove(id, seriesId), collections.update(id, { updatedAt: nowIso() })]);
    this.publish('collection_updated', id, await collections.members.all(id));
  }

  /**
   * The series the viewer may see in each collection, in its order (Komga's `seriesIds`); a smart collection
   * of series lists what its rule finds for the viewer, at most SMART_MEMBERS_LIMIT.
   */
  async visibleSeriesIds(viewer: Viewer, rows: readonly CollectionRow[]): Promise<Map<string, string[]>> {
    const manual = rows.filter((row) => !row.rule).map((row) => row.id);
    const ids = await this.deps.collections.visibleMemberIds(viewer, manual);
    for (const row of rows) {
      if (row.rule?.target !== 'series') continue;
      const page = await this.series(viewer, row.id, { page: 1, pageSize: SMART_MEMBERS_LIMIT, offset: 0 });
      ids.set(
        row.id,
        page.data.map((s) => s.id),
      );
    }
    return ids;
  }

  /** What the collection's cover shows: its first series (or book) the viewer may see; null when none. */
  async cover(viewer: Viewer, id: string): Promise<{ kind: 'series' | 'book'; id: string } | null> {
    const row = await this.record(viewer, id);
    const first = { page: 1, pageSize: 1, offset: 0 };
    if (row.rule?.target === 'books') {
      const [book] = (await this.books(viewer, id, first)).data;
      return book ? { kind: 'book', id: book.id } : null;
    }
    const [series] = (await this.series(viewer, id, first)).data;
    return series ? { kind: 'series', id: series.id } : null;
  }

  /** The collection as the viewer sees it: 404 when unknown or made only of series hidden from the viewer. */
  async row(viewer: Viewer, id: string): Promise<CollectionRow> {
    const row = await this.deps.collections.get(viewer, id);
    if (!row) throw notFound('Collection');
    return row;
  }

  /** The collection's own row as the viewer sees it, without counting its series (404 as `row`). */
  async record(viewer: Viewer, id: string): Promise<CollectionRecord> {
    const row = await this.deps.collections.find(viewer, id);
    if (!row) throw notFound('Collection');
    return row;
  }

  private async manual(viewer: Viewer, id: string): Promise<CollectionRecord> {
    const row = await this.record(viewer, id);
    if (row.rule)
      throw conflict('A smart collection’s series come from its condition: they cannot be added or removed');
    return row;
  }

  /** Every id a series the viewer may see, each named once: else a 400 naming them. */
  async checkSeries(viewer: Viewer, seriesIds: readonly string[]): Promise<void> {
    checkMemberIds(seriesIds, await this.deps.series.visibleIds(viewer, seriesIds), 'seriesIds', 'series');
  }

  private async assertNameFree(name: string, exceptId?: string): Promise<void> {
    const taken = await this.deps.collections.idByName(name);
    if (taken && taken !== exceptId) {
      throw conflict(`A collection named "${name}" already exists`, [{ path: 'name', message: 'already used' }]);
    }
  }

  private publish(
    type: 'collection_created' | 'collection_updated' | 'collection_deleted',
    id: string,
    seriesIds: string[],
  ) {
    this.deps.events.publish({ type, collection_id: id, series_ids: seriesIds });
  }
}

/**
 * The smart rule a body asks for over the current one (checked: a bad condition is a 400 naming its path), or
 * null when the body makes the collection a plain one again (`condition: null` without search terms).
 */
function ruleOf(body: RuleFields, current: SmartRule | null): SmartRule | null {
  const condition = body.condition === undefined ? (current?.condition ?? null) : body.condition;
  const fullTextSearch =
    body.fullTextSearch === undefined ? (current?.fullTextSearch ?? null) : body.fullTextSearch?.trim() || null;
  if (condition === null && fullTextSearch === null) return null;
  const target = body.target ?? current?.target ?? 'series';
  const sort = body.sort === undefined ? (current?.sort ?? null) : body.sort;
  if (condition) parseCondition(condition, target === 'series' ? SERIES_FILTER_FIELDS : BOOK_FILTER_FIELDS);
  if (sort) {
    const fields = target === 'series' ? SERIES_SORT_FIELDS : BOOK_SORT_FIELDS;
    parseSort({ sort }, fields as readonly string[], { field: fields[0], direction: 'asc' });
  }
  return { target, condition, fullTextSearch, sort };
}

/** Two writers can pass the name check at once; the unique index decides, as a 409. */
function rethrowDuplicateName(error: unknown): never {
  const messages = `${error} ${(error as { cause?: unknown } | null)?.cause ?? ''}`;
  if (/UNIQUE constraint failed/i.test(messages)) throw conflict('A collection with this name already exists');
  throw error;
}
