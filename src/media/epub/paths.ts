/** EPUB hrefs → ZIP entry names: relative to the referring file, percent-decoded, without fragment. */
export function dirnameOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash + 1);
}

export function resolveHref(baseDir: string, href: string): string | null {
  const bare = href.split('#')[0]!.split('?')[0]!;
  if (bare === '' || /^[a-z][a-z0-9+.-]*:/i.test(bare)) return null; // in-page links and external URLs
  let decoded: string;
  try {
    decoded = decodeURIComponent(bare);
  } catch {
    decoded = bare;
  }
  const parts: string[] = [];
  for (const part of (decoded.startsWith('/') ? decoded : baseDir + decoded).split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return parts.join('/');
}
