/** Duplicate groups for the viewer (API.md §4 Duplicates): only the copies they may see, dismissed groups hidden. */
import type { PageRequest } from '../lib/pagination';
import type { DuplicatesRepository } from '../repositories/duplicates.repository';
import type { Viewer } from '../repositories/visibility';
import type { DuplicateGroupDto } from '../schemas/task.schema';
import type { ListResult } from './catalog-list';

export class DuplicatesQueryService {
  constructor(private readonly duplicates: DuplicatesRepository) {}

  async list(viewer: Viewer, page: PageRequest): Promise<ListResult<DuplicateGroupDto>> {
    const { groups, total } = await this.duplicates.listShown(viewer, page.offset, page.pageSize);
    const members = await this.duplicates.liveBooks(viewer, [...new Set(groups.flatMap((group) => group.bookIds))]);
    const byId = new Map(members.map((book) => [book.id, book]));
    return {
      total,
      data: groups.map((group) => {
        const live = group.bookIds.filter((id) => byId.has(id));
        return {
          id: group.id,
          fileHash: group.fileHash,
          fileSize: group.fileSize,
          bookIds: live,
          books: live.map((id) => byId.get(id)).filter((book) => book !== undefined),
          createdAt: group.createdAt,
          updatedAt: group.updatedAt,
        };
      }),
    };
  }
}
