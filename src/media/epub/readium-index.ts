/**
 * What the Readium endpoints (Komga's `/manifest`, `/positions`, `/resource/{path}`) need of an EPUB, taken
 * from the one read at analysis and stored with the book (books.readium_index), so that no request reads
 * the archive's directory or package document again: every manifest item with where its bytes are, the
 * spine, the layout and the table of contents. Positions follow from the stored sizes (Komga's
 * `EpubExtractor.computePositions`: one per started 1024 bytes of each spine file's uncompressed size).
 */
import type { JsonValue, PageLocator } from '../container';
import { attr, child, children, parseXml, textOf } from '../xml';
import type { RangeReader } from '../range-reader';
import type { ZipEntry } from '../zip/directory';
import { readEntryBytes, type ZipEntryRef } from '../zip/entry';
import { zipLocator } from '../zip/page-locator';
import type { EntryLookup } from './spine-pages';
import type { ManifestItem, PackageDocument } from './package-document';
import { dirnameOf, resolveHref } from './paths';

/** One EPUB entry, servable by one ranged read: where its ZIP entry is, its path and its OPF media type. */
export type ReadiumResource = Omit<ZipEntryRef, 'name' | 'encrypted'> & {
  /** The ZIP entry name (the OPF href resolved and URL-decoded). */
  path: string;
  /** The OPF media-type. */
  mediaType: string;
};

export interface ReadiumTocEntry {
  title: string;
  /** Entry path, with its `#fragment` when the navigation document has one. */
  href: string;
  children: ReadiumTocEntry[];
}

export interface ReadiumIndex {
  /** Bumped when the shape changes, so an older stored index is rebuilt instead of misread. */
  version: 1;
  fixedLayout: boolean;
  /** Every OPF manifest item whose entry exists, in manifest order. */
  resources: ReadiumResource[];
  /** Indexes into `resources`, in reading order. */
  spine: number[];
  toc: ReadiumTocEntry[];
}

export const READIUM_INDEX_VERSION = 1;

/** Navigation documents larger than this are not read (a TOC is a few KiB; this bounds memory). */
const NAVIGATION_MAX_SIZE = 2 * 1024 * 1024;
/** Nested TOC levels kept: deeper ones are folded into their parent (no reader shows more). */
const TOC_MAX_DEPTH = 8;

function resourceOf(item: ManifestItem, entry: ZipEntry): ReadiumResource {
  const { kind: _kind, name: _name, ...where } = zipLocator(entry);
  return { path: entry.name, mediaType: item.mediaType, ...(where as Omit<ZipEntryRef, 'name' | 'encrypted'>) };
}

const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

/** All text under a node (a TOC link's label may be wrapped in spans). */
function deepText(node: unknown): string {
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(deepText).join(' ');
  if (!node || typeof node !== 'object') return '';
  return Object.entries(node)
    .filter(([key]) => !key.startsWith('@'))
    .map(([, value]) => deepText(value))
    .join(' ');
}

function tocHref(baseDir: string, href: string | null, find: EntryLookup): string | null {
  if (!href) return null;
  const path = resolveHref(baseDir, href);
  const entry = path ? find(path) : undefined;
  if (!entry) return null;
  const fragment = href.includes('#') ? href.slice(href.indexOf('#')) : '';
  return entry.name + fragment;
}

/** EPUB 3 navigation document: `<nav epub:type="toc"><ol><li><a href>…</a><ol>…</ol></li></ol></nav>`. */
function navToc(root: unknown, baseDir: string, find: EntryLookup): ReadiumTocEntry[] {
  const navs: unknown[] = [];
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key.startsWith('@')) continue;
      for (const item of Array.isArray(value) ? value : [value]) {
        if (key === 'nav') navs.push(item);
        else walk(item);
      }
    }
  };
  walk(root);
  const nav = navs.find((n) => attr(n, 'type')?.split(/\s+/).includes('toc')) ?? navs[0];
  const list = (ol: unknown, depth: number): ReadiumTocEntry[] =>
    children(ol, 'li').flatMap((li) => {
      const link = child(li, 'a') ?? child(li, 'span');
      const title = collapse(deepText(link));
      const nested = depth < TOC_MAX_DEPTH ? list(child(li, 'ol'), depth + 1) : [];
      const href = tocHref(baseDir, attr(link, 'href'), find);
      if (!title || !href) return nested;
      return [{ title, href, children: nested }];
    });
  return list(child(nav, 'ol'), 1);
}

/** EPUB 2 NCX: `<navMap><navPoint><navLabel><text/></navLabel><content src/>…</navPoint></navMap>`. */
function ncxToc(root: unknown, baseDir: string, find: EntryLookup): ReadiumTocEntry[] {
  const points = (parent: unknown, depth: number): ReadiumTocEntry[] =>
    children(parent, 'navPoint').flatMap((point) => {
      const title = collapse(textOf(child(child(point, 'navLabel'), 'text')) ?? '');
      const nested = depth < TOC_MAX_DEPTH ? points(point, depth + 1) : [];
      const href = tocHref(baseDir, attr(child(point, 'content'), 'src'), find);
      if (!title || !href) return nested;
      return [{ title, href, children: nested }];
    });
  return points(child(child(root, 'ncx'), 'navMap'), 1);
}

/** The TOC from the navigation document (EPUB 3) or the NCX (EPUB 2); empty when neither reads. */
async function tableOfContents(reader: RangeReader, pkg: PackageDocument, find: EntryLookup) {
  const items = [...pkg.manifest.values()];
  const nav = items.find((item) => item.properties.includes('nav'));
  const ncx = (pkg.tocId ? pkg.manifest.get(pkg.tocId) : undefined) ?? items.find((i) => i.mediaType.includes('ncx'));
  for (const [item, read] of [
    [nav, navToc],
    [ncx, ncxToc],
  ] as const) {
    const entry = item ? find(item.path) : undefined;
    if (!item || !entry) continue;
    try {
      const xml = parseXml(await readEntryBytes(reader, entry, NAVIGATION_MAX_SIZE));
      const toc = xml ? read(xml, dirnameOf(entry.name), find) : [];
      if (toc.length > 0) return toc;
    } catch {
      // A damaged navigation document costs the book its TOC, not its analysis.
    }
  }
  return [];
}

export async function buildReadiumIndex(
  reader: RangeReader,
  pkg: PackageDocument,
  find: EntryLookup,
): Promise<ReadiumIndex> {
  const resources: ReadiumResource[] = [];
  const at = new Map<string, number>();
  for (const item of pkg.manifest.values()) {
    const entry = find(item.path);
    if (!entry || entry.directory || at.has(entry.name)) continue;
    at.set(entry.name, resources.length);
    resources.push(resourceOf(item, entry));
  }
  const spine = pkg.spine.flatMap((item) => {
    const entry = find(item.path);
    const index = entry ? at.get(entry.name) : undefined;
    return index === undefined ? [] : [index];
  });
  return {
    version: READIUM_INDEX_VERSION,
    fixedLayout: pkg.fixedLayout,
    resources,
    spine,
    toc: await tableOfContents(reader, pkg, find),
  };
}

/** Where a resource's bytes are, as the ZIP page locator the page readers take (one ranged read serves it). */
export function resourceLocator(resource: ReadiumResource): PageLocator {
  const { mediaType: _type, path, ...entry } = resource;
  return { kind: 'zip', name: path, ...entry };
}

/** The stored index, or null when there is none or it is of an older shape (the book is analysed again). */
export function readiumIndexOf(stored: JsonValue | null | undefined): ReadiumIndex | null {
  if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return null;
  if (stored.version !== READIUM_INDEX_VERSION) return null;
  return stored as unknown as ReadiumIndex;
}

/** Readium positions: one per started 1024 bytes of each spine file (at least one); one per file when fixed. */
const POSITION_BYTES = 1024;

export interface ReadiumPosition {
  href: string;
  type: string;
  locations: { progression: number; position: number; totalProgression: number };
  koboSpan?: string;
}

/**
 * Komga's position list (`EpubExtractor.computePositions`): positions numbered from 1 across the book,
 * `progression` the position's place within its file, `totalProgression` position / total, both as
 * Kotlin Floats; `href` the raw entry path (not a URL, not encoded), as Komga writes it.
 */
export function readiumPositionList(index: ReadiumIndex): ReadiumPosition[] {
  const perFile = index.spine.map((i) => {
    const resource = index.resources[i]!;
    const count = index.fixedLayout ? 1 : Math.max(1, Math.ceil(resource.size / POSITION_BYTES));
    return { resource, count };
  });
  const total = perFile.reduce((sum, file) => sum + file.count, 0);
  const positions: ReadiumPosition[] = [];
  for (const { resource, count } of perFile) {
    for (let p = 0; p < count; p++) {
      const position = positions.length + 1;
      positions.push({
        href: resource.path,
        type: resource.mediaType,
        locations: {
          progression: index.fixedLayout ? 0 : Math.fround(p / count),
          position,
          totalProgression: Math.fround(position / total),
        },
        ...(p === 0 ? { koboSpan: 'kobo.1.1' } : {}),
      });
    }
  }
  return positions;
}
