/**
 * Browsing the library bucket as folders and files (API.md §4 Filesystem, DECISIONS.md §Storage), so
 * an admin can pick a library path. Read-only.
 */
import { badRequest } from '../lib/errors';
import { assertSeesEverything, type Viewer } from '../repositories/visibility';
import type { BrowseResult, Drive } from '../schemas/filesystem.schema';
import { folderPrefix, normalizeKeyPath } from '../storage/key-paths';

export class FilesystemService {
  constructor(
    private readonly bucket: R2Bucket,
    private readonly bucketName: string,
  ) {}

  drives(viewer: Viewer): Drive[] {
    assertSeesEverything(viewer, 'browse the bucket');
    return [{ name: this.bucketName, binding: 'LIBRARY', path: '' }];
  }

  /** The bucket holds every library's files: for a viewer who sees every library (an admin's narrowed key does not). */
  async browse(viewer: Viewer, path: string, options: { cursor?: string; limit: number }): Promise<BrowseResult> {
    assertSeesEverything(viewer, 'browse the bucket');
    const normalized = normalizeKeyPath(path);
    if (!normalized.ok) {
      throw badRequest(`Invalid path: ${normalized.reason}`, [{ path: 'path', message: normalized.reason }]);
    }
    const prefix = folderPrefix(normalized.path);
    const listing = await this.bucket
      .list({ prefix, delimiter: '/', cursor: options.cursor, limit: options.limit })
      .catch((error: unknown) => {
        if (options.cursor !== undefined) throw badRequest('Invalid cursor', [{ path: 'cursor', message: 'invalid' }]);
        throw error;
      });
    const parentEnd = normalized.path.lastIndexOf('/');
    return {
      path: normalized.path,
      parent: normalized.path === '' ? null : normalized.path.slice(0, Math.max(parentEnd, 0)),
      folders: listing.delimitedPrefixes.map((folder) => {
        const folderPath = folder.slice(0, -1);
        return { name: folderPath.slice(prefix.length), path: folderPath };
      }),
      // A zero-byte "folder marker" object named like the folder itself is not a file in it.
      files: listing.objects
        .filter((object) => object.key !== prefix)
        .map((object) => ({
          key: object.key,
          name: object.key.slice(prefix.length),
          size: object.size,
          uploaded: object.uploaded.toISOString(),
        })),
      truncated: listing.truncated,
      cursor: listing.truncated ? listing.cursor : null,
    };
  }
}
