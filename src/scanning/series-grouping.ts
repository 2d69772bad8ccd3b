/**
 * Series grouping (issue 3 point 5): books of one folder form a series; a book directly in the library
 * root is its own series, unless its metadata names a series, in which case root books with the same
 * series name share one. The series title is the metadata series name when the books carry one,
 * else the folder name.
 */
import type { BookMetadata } from '../media/container';
import type { KeyParts } from './book-keys';

export interface SeriesGroup {
  /** Stable grouping key, unique within a library. */
  groupKey: string;
  /** Folder path of the series, or the book's own key for a root-level book. */
  path: string;
  /** Title to use when the series is created. */
  title: string;
}

export function seriesGroupOf(
  libraryPath: string,
  key: string,
  parts: KeyParts,
  metadata: BookMetadata | null,
): SeriesGroup {
  const seriesName = metadata?.series?.trim() || null;
  if (parts.folder) {
    const folderName = parts.folder.slice(parts.folder.lastIndexOf('/') + 1);
    return {
      groupKey: `folder:${parts.folder}`,
      path: libraryPath ? `${libraryPath}/${parts.folder}` : parts.folder,
      title: seriesName ?? folderName,
    };
  }
  if (seriesName) return { groupKey: `series:${seriesName.toLowerCase()}`, path: libraryPath, title: seriesName };
  return { groupKey: `book:${key}`, path: key, title: metadata?.title?.trim() || parts.baseName };
}

/** Sort title: leading English articles moved out of the way ("The Walking Dead" → "walking dead, the"). */
export function sortTitle(title: string): string {
  const lower = title.trim().toLowerCase();
  const match = /^(the|a|an)\s+(.+)$/.exec(lower);
  return match ? `${match[2]}, ${match[1]}` : lower;
}
