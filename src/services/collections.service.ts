/**
 * Collections (docs/DECISIONS.md §Organise and share, §Collections and read lists): sets of series shared by
 * everyone, written by maintainers; and smart collections, a saved series or book list request evaluated for
 * each reader on every read through the same list services as `POST /series/list` and `POST /books/list`.
 * Every read and write is for a viewer: hidden members are left out of what is shown and kept in place by edits.
 */
import { parseCondition } from '../catalog/filters';
import { parseSort } from '../catalog/sort';
import type { EventPublisher } from '../events/events';
import { badRequest, conflict } from '../lib/errors';
import type { PageRequest } from '../lib/pagination';
import { toCollectionDto } from '../mappers/lists.mapper';
import { toSeriesDto } from '../mappers/series.mapper';
import { BOOK_SORT_FIELDS } from '../repositories/books.repository';
import { BOOK_FILTER_FIELDS, SERIES_FILTER_FIELDS } from '../repositories/catalog-filters';
import type { PageEnrichment } from '../repositories/catalog-page';
import type {
  CollectionChanges,
  CollectionListQuery,
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
import { MEMBERS_LIMIT, MemberListService } from './member-list.service';
import type { SeriesQueryService } from './series-query.service';

/** The types a collection is made of (member-list.service.ts ListTypes). */
type Collection = { row: CollectionRow; dto: CollectionDto; query: CollectionListQuery } & {
  create: CreateCollectionBody;
  edit: UpdateCollectionBody;
};

export interface CollectionsDeps {
  collections: CollectionsRepository;
  series: SeriesRepository;
  seriesQuery: SeriesQueryService;
  bookQuery: BookQueryService;
  events: EventPublisher;
}

/** The rule fields of a body, as a smart rule; undefined when the body says nothing about a rule. */
type RuleFields = Pick<UpdateCollectionBody, 'condition' | 'target' | 'fullTextSearch' | 'sort'>;

export class CollectionsService extends MemberListService<Collection> {
  constructor(private readonly deps: CollectionsDeps) {
    super(deps.collections, deps.events, { noun: 'Collection', members: deps.series, toDto: toCollectionDto });
  }

  /** Pinning and the smart rule: a plain collection with series of its own cannot be given a rule (409). */
  protected override changesOf(current: CollectionRow, body: UpdateCollectionBody): CollectionChanges {
    const changes: CollectionChanges = {};
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
    return changes;
  }

  /** The collection's series the viewer may see: its own order (or by name), or its rule's list. */
  async series(viewer: Viewer, id: string, page: PageRequest): Promise<ListResult<SeriesDto>> {
    return this.seriesOf(viewer, await this.record(viewer, id), page);
  }

  private async seriesOf(
    viewer: Viewer,
    collection: CollectionRecord,
    page: PageRequest,
  ): Promise<ListResult<SeriesDto>> {
    const { rule } = collection;
    if (rule?.target === 'books') throw conflict('This smart collection lists books: GET …/books');
    if (rule) {
      return this.deps.seriesQuery.list(viewer, { sort: rule.sort ?? undefined }, page, {
        condition: rule.condition ?? undefined,
        fullTextSearch: rule.fullTextSearch ?? undefined,
      });
    }
    const keys = collection.ordered ? COLLECTION_ORDER : seriesSortKeys('name', 'asc', viewer);
    const { rows, total } = await this.deps.series.listInCollection(viewer, collection.id, {
      keys,
      limit: page.pageSize,
      offset: page.offset,
    });
    return { data: rows.map(toSeriesDto), total };
  }

  /**
   * The page `series` returns, its rows in a caller's own series shape (`enrich`, the Komga API's) read in the
   * page's statement; a smart collection of books has none.
   */
  async seriesAs<Row extends { pageTotal: number | null }>(
    viewer: Viewer,
    id: string,
    page: PageRequest,
    enrich: PageEnrichment<Row>,
  ): Promise<{ rows: Array<Omit<Row, 'pageTotal'>>; total: number }> {
    const collection = await this.record(viewer, id);
    const { rule } = collection;
    if (rule?.target === 'books') return { rows: [], total: 0 };
    if (rule) {
      const filter = { condition: rule.condition ?? undefined, fullTextSearch: rule.fullTextSearch ?? undefined };
      return this.deps.seriesQuery.listAs(viewer, { sort: rule.sort ?? undefined }, page, filter, enrich);
    }
    const keys = collection.ordered ? COLLECTION_ORDER : seriesSortKeys('name', 'asc', viewer);
    const window = { keys, limit: page.pageSize, offset: page.offset };
    return this.deps.series.listMembersAs(viewer, collection.id, window, enrich);
  }

  /** A smart collection of books: its rule's book list for the viewer. */
  async books(viewer: Viewer, id: string, page: PageRequest): Promise<ListResult<BookDto>> {
    return this.booksOf(viewer, await this.record(viewer, id), page);
  }

  private async booksOf(viewer: Viewer, { rule }: CollectionRecord, page: PageRequest): Promise<ListResult<BookDto>> {
    if (rule?.target !== 'books') throw conflict('This collection holds series: GET …/series');
    return this.deps.bookQuery.list(viewer, { sort: rule.sort ?? undefined }, page, {
      condition: rule.condition ?? undefined,
      fullTextSearch: rule.fullTextSearch ?? undefined,
    });
  }

  /** The collection's smart rule: null for a plain collection, undefined when it is unknown or hidden. */
  async ruleOf(viewer: Viewer, id: string): Promise<SmartRule | null | undefined> {
    const row = await this.lists.find(viewer, id);
    return row ? row.rule : undefined;
  }

  /**
   * The series the viewer may see in each collection, in its order (Komga's `seriesIds`); a smart collection
   * of series lists what its rule finds for the viewer, at most MEMBERS_LIMIT. Two statements for any number of
   * collections: the plain ones' member rows, and the smart ones' rules run as ids-only queries in one batch.
   */
  override async memberIdsOf(viewer: Viewer, rows: readonly CollectionRecord[]): Promise<Map<string, string[]>> {
    const smart = rows.filter((row) => row.rule?.target === 'series');
    // Plain collections' member rows and smart collections' rule lists are independent: read them together.
    const [ids, found] = await Promise.all([
      super.memberIdsOf(
        viewer,
        rows.filter((row) => !row.rule),
      ),
      this.deps.seriesQuery.idsOfEach(
        viewer,
        smart.map(({ rule }) => ({
          params: { sort: rule?.sort ?? undefined },
          filter: { condition: rule?.condition ?? undefined, fullTextSearch: rule?.fullTextSearch ?? undefined },
        })),
        MEMBERS_LIMIT,
      ),
    ]);
    smart.forEach((row, i) => {
      ids.set(row.id, found[i] ?? []);
    });
    return ids;
  }

  /** What the collection's cover shows: its first series (or book) the viewer may see; null when none. */
  override async cover(viewer: Viewer, id: string): Promise<{ kind: 'series' | 'book'; id: string } | null> {
    // The collection's row read once, for its rule and its first member alike.
    const row = await this.record(viewer, id);
    const first = { page: 1, pageSize: 1, offset: 0 };
    if (row.rule?.target === 'books') {
      const [book] = (await this.booksOf(viewer, row, first)).data;
      return book ? { kind: 'book', id: book.id } : null;
    }
    const [series] = (await this.seriesOf(viewer, row, first)).data;
    return series ? { kind: 'series', id: series.id } : null;
  }

  /** A collection of series, or a smart one (a condition, no series of its own: both at once is a 400). */
  protected override newList(body: CreateCollectionBody) {
    const rule = ruleOf(body, null);
    const memberIds = body.seriesIds ?? [];
    if (rule && memberIds.length > 0) {
      throw badRequest('A smart collection has no series of its own: send seriesIds or a condition, not both', [
        { path: 'seriesIds', message: 'not allowed with a condition' },
      ]);
    }
    const { name, summary = null, ordered = false, pinnedToHome = false } = body;
    return { list: { name, summary, ordered, rule, pinnedToHome }, memberIds };
  }

  /** A smart collection's series come from its rule: they cannot be added, replaced or removed (409). */
  protected override async editable(viewer: Viewer, id: string): Promise<unknown> {
    const row = await this.record(viewer, id);
    if (row.rule)
      throw conflict('A smart collection’s series come from its condition: they cannot be added or removed');
    return row;
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
