/**
 * Objects a scan does not read, counted by extension and reason (DECISIONS.md §Books), so a user learns
 * why a file is missing from the library ("3 .cb7 files skipped: 7z is not supported, repack as CBZ")
 * in scan-status, the scan_library task result and the scan stream.
 */
import { formatOfKey } from './book-keys';

export interface SkippedGroup {
  /** Lower-case extension with its dot (`.cb7`); '' for files without one. */
  extension: string;
  reason: string;
  count: number;
}

/** Distinct groups kept in the scan state; the rest are merged into one, so the state stays small. */
const MAX_GROUPS = 25;
const OTHER = 'not a book format Longbox reads (cbz, cbr, zip, rar, epub, pdf)';

const repack = (what: string) => `${what} is not supported, repack as CBZ`;
const REASONS: Record<string, string> = {
  '.cb7': repack('7z'),
  '.7z': repack('7z'),
  '.cbt': repack('TAR'),
  '.tar': repack('TAR'),
  '.cba': repack('ACE'),
  '.ace': repack('ACE'),
  '.mobi': 'MOBI is not supported, convert it to EPUB',
  '.azw': 'Kindle books are not supported, convert them to EPUB',
  '.azw3': 'Kindle books are not supported, convert them to EPUB',
  '.djvu': 'DjVu is not supported, convert it to PDF',
};

function extensionOf(key: string): string {
  const name = key.slice(key.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

/** Why a listed object is not read, or null when it is a book the scan analyses. Folder markers are neither. */
export function skipReason(key: string, size: number): { extension: string; reason: string } | null | 'ignore' {
  if (key.endsWith('/')) return 'ignore';
  const extension = extensionOf(key);
  if (key.split('/').some((segment) => segment === '__MACOSX' || segment.startsWith('.'))) {
    return { extension, reason: 'hidden files and __MACOSX folders are not books' };
  }
  if (formatOfKey(key) === null) return { extension, reason: REASONS[extension] ?? OTHER };
  if (size === 0) return { extension, reason: 'the file is empty' };
  return null;
}

/** `groups` with `found` counted in (a new array; the scan state is immutable between steps). */
export function countSkipped(
  groups: readonly SkippedGroup[],
  found: ReadonlyArray<{ extension: string; reason: string }>,
): SkippedGroup[] {
  const next = groups.map((group) => ({ ...group }));
  for (const item of found) {
    let group = next.find((g) => g.extension === item.extension && g.reason === item.reason);
    if (!group && next.length >= MAX_GROUPS) group = next.find((g) => g.extension === '*' && g.reason === OTHER);
    if (!group) {
      group = next.length >= MAX_GROUPS ? { extension: '*', reason: OTHER, count: 0 } : { ...item, count: 0 };
      next.push(group);
    }
    group.count += 1;
  }
  return next;
}

/** "3 .cb7 files skipped: 7z is not supported, repack as CBZ". */
export function describeSkipped(group: SkippedGroup): string {
  const files = group.count === 1 ? 'file' : 'files';
  const what =
    group.extension === '*'
      ? `other ${files}`
      : group.extension === ''
        ? `${files} without an extension`
        : `${group.extension} ${files}`;
  return `${group.count} ${what} skipped: ${group.reason}`;
}

/** The skipped-file fields of scan-status and the scan_library task result. */
export function skippedFilesOf(state: { skipped?: SkippedGroup[] }): {
  filesSkipped: number;
  skipped: Array<SkippedGroup & { message: string }>;
} {
  const groups = state.skipped ?? [];
  return {
    filesSkipped: groups.reduce((sum, group) => sum + group.count, 0),
    skipped: groups.map((group) => ({ ...group, message: describeSkipped(group) })),
  };
}
