/**
 * What the catalog's two list repositories (books, series) share: the page a query asks for, or of a list's
 * members (a read list's books, a collection's series), read in a caller's own row shape through the list's
 * `ListSpec` (catalog-page.ts). Each repository reads its own rows (`list`, `listIn…`).
 */
import type { Database } from '../db/client';
import type { FeedExtrasRead } from './book-extras.repository';
import type { FilterNode } from './catalog-filters';
import { type ListSpec, type PageEnrichment, type PageWindow, readList } from './catalog-page';
import type { Viewer } from './visibility';

export abstract class CatalogListRepository<Query> {
  /**
   * `extrasRead`: an OPDS feed's lists read what each row's entry needs beyond the row (a book's extras, whether a
   * series has a cover) in the page's own statement and leave it there, so the feed needs no second round trip
   * for it (issue 30).
   */
  constructor(
    protected readonly db: Database,
    protected readonly extrasRead: FeedExtrasRead | null = null,
  ) {}

  /**
   * The page `list` reads, its rows selected in a caller's own shape (the Komga API's) in the page's statement:
   * each row is enriched once, and the page costs no round trip for ids before its rows.
   */
  async listAs<Row extends { pageTotal: number | null }>(viewer: Viewer, query: Query, enrich: PageEnrichment<Row>) {
    return readList(this.db, this.listSpec(viewer, query), enrich);
  }

  /** A page of a list's members (`listInReadList`, `listInCollection`), in a caller's own shape (listAs). */
  async listMembersAs<Row extends { pageTotal: number | null }>(
    viewer: Viewer,
    listId: string,
    window: PageWindow,
    enrich: PageEnrichment<Row>,
  ) {
    return readList(this.db, this.membersSpec(viewer, listId, window), enrich);
  }

  /** The list's page as `readList` reads it: its rows, condition and order. */
  protected abstract listSpec(viewer: Viewer, query: Query): ListSpec;

  /** The page of a list's live members the viewer may see, in `window`'s order, narrowed by `filter` when given. */
  protected abstract membersSpec(viewer: Viewer, listId: string, window: PageWindow, filter?: FilterNode): ListSpec;
}
