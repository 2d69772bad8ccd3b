/**
 * `sort` + `order` query parameters of list endpoints (API.md §4 Sorting and simple filters): `sort`
 * names a field, `order` is asc or desc, and `sort` may also be `<field>,<direction>`. An unknown field
 * is a 400 that lists the allowed ones (DECISIONS.md §Lists).
 */
import { badRequest } from '../lib/errors';
import type { SortDirection } from '../repositories/catalog-page';

export interface Sort<F extends string> {
  field: F;
  direction: SortDirection;
}

function parseDirection(text: string, path: string): SortDirection {
  const direction = text.trim().toLowerCase();
  if (direction === 'asc' || direction === 'desc') return direction;
  throw badRequest(`Unknown sort direction '${text}'; use asc or desc`, [{ path, message: 'must be asc or desc' }]);
}

/** `fallback` applies when `sort` is absent; `order` alone changes the fallback's direction. */
export function parseSort<F extends string>(
  query: { sort?: string; order?: string },
  allowed: readonly F[],
  fallback: Sort<F>,
): Sort<F> {
  const order = query.order ? parseDirection(query.order, 'order') : undefined;
  if (!query.sort || query.sort.trim() === '') return { field: fallback.field, direction: order ?? fallback.direction };
  const [fieldText = '', directionText] = query.sort.split(',', 2);
  const field = fieldText.trim();
  if (!(allowed as readonly string[]).includes(field)) {
    throw badRequest(`Unknown sort field '${field}'; allowed: ${allowed.join(', ')}`, [
      { path: 'sort', message: `must be one of ${allowed.join(', ')}` },
    ]);
  }
  const direction = directionText !== undefined ? parseDirection(directionText, 'sort') : (order ?? 'asc');
  return { field: field as F, direction };
}
