/**
 * Which archive entries are pages (DECISIONS.md §Books): images by extension, skipping macOS resource
 * forks (`__MACOSX/`), dot files and thumbnail folders that archivers and scanners leave behind.
 */
const PAGE_MEDIA_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  avif: 'image/avif',
  jxl: 'image/jxl',
  bmp: 'image/bmp',
  // Netpbm, as scanners and old comic tools write it; the renderer converts it (renderer/src/codecs/netpbm.ts).
  ppm: 'image/x-portable-pixmap',
  pgm: 'image/x-portable-graymap',
  pbm: 'image/x-portable-bitmap',
  pnm: 'image/x-portable-anymap',
};

const THUMBNAIL_FOLDERS = new Set(['thumbs', 'thumb', 'thumbnails', 'thumbnail', '.thumbnails', '@eadir']);

export function extensionOf(name: string): string {
  const base = name.slice(name.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** Media type of an image file name, or null when the extension is not a page image. */
export function imageMediaType(name: string): string | null {
  return PAGE_MEDIA_TYPES[extensionOf(name)] ?? null;
}

/** Entries that are never pages even with an image extension. `name` uses `/` separators. */
export function isIgnoredEntry(name: string): boolean {
  const parts = name.split('/').filter((part) => part !== '');
  if (parts.length === 0) return true;
  if (parts[0] === '__MACOSX') return true;
  if (parts.some((part) => part.startsWith('.'))) return true;
  return parts.slice(0, -1).some((folder) => THUMBNAIL_FOLDERS.has(folder.toLowerCase()));
}

/** True when an archive entry should become a page. */
export function isPageEntry(name: string): boolean {
  return !name.endsWith('/') && imageMediaType(name) !== null && !isIgnoredEntry(name);
}
