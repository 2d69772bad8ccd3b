/**
 * Which R2 objects are books and how their keys map to series folders. A library is a key prefix;
 * keys are `<prefix>/<folders…>/<file>`.
 */
import type { BookFormat } from '../media/container';
import { formatFromExtension } from '../media/detect';

/** The format a key's extension claims, or null when the object is not a book (or is hidden). */
export function formatOfKey(key: string): BookFormat | null {
  const name = key.slice(key.lastIndexOf('/') + 1);
  if (key.split('/').some((segment) => segment === '__MACOSX' || segment.startsWith('.'))) return null;
  return formatFromExtension(name);
}

/** The listing prefix of a library path ('' lists the whole bucket). */
export const libraryPrefix = (path: string): string => (path ? `${path}/` : '');

export interface KeyParts {
  /** Folder of the book relative to the library ('' when the book sits in the library root). */
  folder: string;
  fileName: string;
  /** File name without its extension. */
  baseName: string;
}

export function splitKey(libraryPath: string, key: string): KeyParts {
  const relative = key.slice(libraryPrefix(libraryPath).length);
  const slash = relative.lastIndexOf('/');
  const fileName = slash < 0 ? relative : relative.slice(slash + 1);
  const dot = fileName.lastIndexOf('.');
  return {
    folder: slash < 0 ? '' : relative.slice(0, slash),
    fileName,
    baseName: dot > 0 ? fileName.slice(0, dot) : fileName,
  };
}
