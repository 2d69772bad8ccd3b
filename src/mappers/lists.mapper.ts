/** Collection and read-list rows → their /api/v1 responses (src/schemas/lists.schema.ts). */
import type { CollectionRow } from '../repositories/collections.repository';
import type { ReadListRow } from '../repositories/read-lists.repository';
import type { CollectionDto, ReadListDto } from '../schemas/lists.schema';

/** The fields every list's response opens with. */
const head = ({ id, name, summary, ordered }: CollectionRow | ReadListRow) => ({ id, name, summary, ordered });

/** The fields every list's response ends with: whether some members are hidden from the viewer, and dates. */
const tail = ({ visibleCount, memberCount, createdAt, updatedAt }: CollectionRow | ReadListRow) => ({
  filtered: visibleCount < memberCount,
  createdAt,
  updatedAt,
});

export function toCollectionDto(row: CollectionRow): CollectionDto {
  const { rule } = row;
  // A plain collection answers a smart one's fields empty (and the series target).
  const { condition = null, target = 'series', fullTextSearch = null, sort = null } = rule ?? {};
  return {
    ...head(row),
    automatic: rule !== null,
    condition,
    target,
    fullTextSearch,
    sort,
    pinnedToHome: row.pinnedToHome,
    seriesCount: rule ? null : row.visibleCount,
    ...tail(row),
  };
}

export function toReadListDto(row: ReadListRow): ReadListDto {
  return { ...head(row), summary: row.summary, bookCount: row.visibleCount, ...tail(row) };
}
