/** Collection and read-list rows → their /api/v1 responses (src/schemas/lists.schema.ts). */
import type { CollectionRow } from '../repositories/collections.repository';
import type { ReadListRow } from '../repositories/read-lists.repository';
import type { CollectionDto, ReadListDto } from '../schemas/lists.schema';

export function toCollectionDto(row: CollectionRow): CollectionDto {
  const rule = row.rule;
  return {
    id: row.id,
    name: row.name,
    summary: row.summary,
    ordered: row.ordered,
    automatic: rule !== null,
    condition: rule?.condition ?? null,
    target: rule?.target ?? 'series',
    fullTextSearch: rule?.fullTextSearch ?? null,
    sort: rule?.sort ?? null,
    pinnedToHome: row.pinnedToHome,
    seriesCount: rule ? null : row.visibleCount,
    filtered: row.visibleCount < row.memberCount,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function toReadListDto(row: ReadListRow): ReadListDto {
  return {
    id: row.id,
    name: row.name,
    summary: row.summary,
    ordered: row.ordered,
    bookCount: row.visibleCount,
    filtered: row.visibleCount < row.memberCount,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
