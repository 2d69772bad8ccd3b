/**
 * Key paths in the library bucket (DECISIONS.md §Storage: "R2 is the filesystem"). A library `path`
 * is a key prefix and an uploaded file a key below it; both are written like relative POSIX paths so
 * that folders (common prefixes with delimiter `/`) mean the same thing everywhere.
 */

export type KeyPathResult = { ok: true; path: string } | { ok: false; reason: string };

/** R2 keys are at most 1024 bytes; leave room below a library prefix for its files. */
export const MAX_KEY_BYTES = 1024;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
/** `C:`, `C:\…`, `C:/…` or a URL: paths from another machine, not key prefixes. */
const FOREIGN_ROOT = /^(?:[A-Za-z]:|[A-Za-z][A-Za-z0-9+.-]*:\/\/)/;

/**
 * Normalises a user-supplied path: leading/trailing slashes are dropped (keys have no root) and
 * repeated slashes collapse. Refused: `.`/`..` segments, backslashes, control characters, drive
 * letters and URLs. The empty path means the whole bucket.
 */
export function normalizeKeyPath(input: string): KeyPathResult {
  if (CONTROL_CHARACTERS.test(input)) return { ok: false, reason: 'must not contain control characters' };
  if (input.includes('\\')) return { ok: false, reason: 'must use "/" as separator, not "\\"' };
  if (FOREIGN_ROOT.test(input)) {
    return { ok: false, reason: 'must be a key prefix in the library bucket, not a drive path or URL' };
  }
  const segments = input.split('/').filter((segment) => segment !== '');
  if (segments.some((segment) => segment === '.' || segment === '..')) {
    return { ok: false, reason: 'must not contain "." or ".." segments' };
  }
  const path = segments.join('/');
  if (new TextEncoder().encode(path).length > MAX_KEY_BYTES) {
    return { ok: false, reason: `must be at most ${MAX_KEY_BYTES} bytes` };
  }
  return { ok: true, path };
}

/**
 * The folder a library gets when it is created without one (DECISIONS.md §Storage): its name as one
 * key segment — `/` and `\` become `-`, control characters go, surrounding spaces and dots are trimmed —
 * so "Comics" keeps its books under `Comics/`, beside every other library's folder, instead of owning the
 * whole bucket. A name with nothing usable left gets `library`.
 */
export function libraryFolderFor(name: string): string {
  const segment = name
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is dropped
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replace(/[/\\]+/g, '-')
    .replace(/^[\s.]+|[\s.]+$/g, '');
  const folder = segment === '' ? 'library' : segment;
  // Names are at most 200 characters; a key prefix is bounded in bytes.
  const bytes = new TextEncoder().encode(folder);
  return bytes.length <= 200 ? folder : new TextDecoder().decode(bytes.slice(0, 200)).replace(/\uFFFD$/, '');
}

/** Segment-wise: `comics` overlaps `comics` and `comics/manga` but not `comics2`; '' overlaps all. */
export function keyPathsOverlap(a: string, b: string): boolean {
  if (a === '' || b === '' || a === b) return true;
  return a.startsWith(`${b}/`) || b.startsWith(`${a}/`);
}

/** The full object key of `relative` inside the library rooted at `prefix`. */
export function joinKeyPath(prefix: string, relative: string): string {
  return prefix === '' ? relative : `${prefix}/${relative}`;
}

/** The listing prefix of a folder: '' for the root, else the path with a trailing slash. */
export function folderPrefix(path: string): string {
  return path === '' ? '' : `${path}/`;
}
