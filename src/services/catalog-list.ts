/** Shapes and helpers shared by the series and book list services (API.md §4, DECISIONS.md §Lists). */
import { parseCondition } from '../catalog/filters';
import type { FilterFields, FilterNode } from '../repositories/catalog-filters';
import type { SortDirection } from '../repositories/catalog-page';
import { toMatchExpression } from '../repositories/search-index';

export interface ListResult<T> {
  data: T[];
  total: number;
}

export interface SortParams {
  sort?: string;
  order?: string;
  /**
   * Order by the rows' positions in this collection (series) or read list (books) instead of `sort`: Komga's
   * `collection.number`/`readList.number` sorts, for lists narrowed to that collection or read list.
   */
  listOrder?: { listId: string; direction: SortDirection };
}

export interface ListFilter {
  condition?: Record<string, unknown>;
  fullTextSearch?: string;
}

/**
 * The FTS expression of a search text: undefined when there is nothing to search for (no filter),
 * null when the text is not blank but holds no searchable term (nothing can match).
 */
export function searchTerms(text: string | undefined): string | null | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  return toMatchExpression(text);
}

/** The client's condition checked against the resource's fields (a 400 naming what is wrong), if any. */
export function checkedCondition(filter: ListFilter, fields: FilterFields): FilterNode | undefined {
  return filter.condition ? parseCondition(filter.condition, fields) : undefined;
}
