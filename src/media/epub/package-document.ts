/**
 * The EPUB package document (OPF): manifest, spine, layout and the book's metadata — Dublin Core
 * plus the two ways series are written (EPUB 3 belongs-to-collection, calibre's meta tags).
 */
import { parseBookNumber } from '../comic-info';
import { type BookAuthor, type BookMetadata, emptyMetadata } from '../container';
import { normalizeIsbn } from '../isbn';
import { attr, child, children, textOf, type XmlNode } from '../xml';
import { dirnameOf, resolveHref } from './paths';

export interface ManifestItem {
  id: string;
  path: string;
  mediaType: string;
  properties: string[];
}

export interface PackageDocument {
  manifest: Map<string, ManifestItem>;
  spine: ManifestItem[];
  /** rendition:layout pre-paginated for the whole book. */
  fixedLayout: boolean;
  coverImage: ManifestItem | null;
  /** The spine's `toc` attribute: the NCX's manifest id (EPUB 2). */
  tocId: string | null;
  metadata: BookMetadata;
}

/** MARC relator codes → the roles ComicInfo uses, so EPUB and CBZ people share one vocabulary. */
const RELATORS: Record<string, string> = {
  aut: 'writer',
  wri: 'writer',
  ill: 'penciller',
  art: 'penciller',
  clr: 'colorist',
  edt: 'editor',
  trl: 'translator',
  cov: 'cover',
  ltr: 'letterer',
};

const stripMarkup = (html: string) =>
  html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();

interface Meta {
  name: string | null;
  property: string | null;
  refines: string | null;
  content: string | null;
  id: string | null;
}

function readMetas(metadata: unknown): Meta[] {
  return children(metadata, 'meta').map((meta) => ({
    name: attr(meta, 'name'),
    property: attr(meta, 'property'),
    refines: attr(meta, 'refines')?.replace(/^#/, '') ?? null,
    content: attr(meta, 'content') ?? textOf(meta),
    id: attr(meta, 'id'),
  }));
}

function refinement(metas: Meta[], id: string | null, property: string): string | null {
  if (!id) return null;
  return metas.find((meta) => meta.refines === id && meta.property === property)?.content ?? null;
}

function people(metadata: unknown, metas: Meta[]): BookAuthor[] {
  const result: BookAuthor[] = [];
  for (const [element, fallback] of [
    ['creator', 'writer'],
    ['contributor', 'contributor'],
  ] as const) {
    for (const node of children(metadata, element)) {
      const name = textOf(node);
      if (!name) continue;
      const code = (attr(node, 'role') ?? refinement(metas, attr(node, 'id'), 'role'))?.toLowerCase() ?? null;
      if (code === 'bkp') continue; // "book producer" is the software that made the file (calibre), not a person
      result.push({ name, role: code ? (RELATORS[code] ?? code) : fallback });
    }
  }
  return result;
}

function firstText(metadata: unknown, element: string): string | null {
  for (const node of children(metadata, element)) {
    const text = textOf(node);
    if (text) return text;
  }
  return null;
}

function title(metadata: unknown, metas: Meta[]): string | null {
  const titles = children(metadata, 'title');
  const main = titles.find((node) => refinement(metas, attr(node, 'id'), 'title-type') === 'main');
  return textOf(main) ?? firstText(metadata, 'title');
}

/** The publication date (dc:date, the `publication` event when several), as year, month and day. */
function releaseDate(metadata: unknown): Pick<BookMetadata, 'year' | 'month' | 'day'> {
  const dates = children(metadata, 'date');
  const published = dates.find((node) => (attr(node, 'event') ?? 'publication') === 'publication') ?? dates[0];
  const match = textOf(published)?.match(/^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?/);
  // calibre writes 0101-01-01 for "no date".
  if (!match || Number(match[1]) < 1000) return { year: null, month: null, day: null };
  const month = match[2] && Number(match[2]) >= 1 && Number(match[2]) <= 12 ? Number(match[2]) : null;
  const day = month && match[3] && Number(match[3]) >= 1 && Number(match[3]) <= 31 ? Number(match[3]) : null;
  return { year: Number(match[1]), month, day };
}

/**
 * The book's ISBN among its dc:identifiers: one whose scheme says ISBN (`opf:scheme`, an EPUB 3
 * `identifier-type` refinement, ONIX codes 02 and 15), or written `urn:isbn:…`; else any identifier that
 * is a valid ISBN on its own (a bare 978… number).
 */
function isbnOf(metadata: unknown, metas: Meta[]): string | null {
  const identifiers = children(metadata, 'identifier').map((node) => {
    const type = refinement(metas, attr(node, 'id'), 'identifier-type');
    const declared =
      attr(node, 'scheme')?.toLowerCase() === 'isbn' ||
      type === '02' ||
      type === '15' ||
      type?.toLowerCase() === 'isbn';
    return { text: textOf(node), declared };
  });
  const preferred = identifiers.filter((id) => id.declared || /^urn:isbn:/i.test(id.text ?? ''));
  for (const { text } of [...preferred, ...identifiers]) {
    const isbn = normalizeIsbn(text);
    if (isbn) return isbn;
  }
  return null;
}

function series(metas: Meta[]): { name: string | null; position: string | null } {
  const collections = metas.filter((meta) => meta.property === 'belongs-to-collection' && meta.content);
  const collection =
    collections.find((meta) => refinement(metas, meta.id, 'collection-type') === 'series') ??
    collections.find((meta) => !refinement(metas, meta.id, 'collection-type'));
  if (collection) return { name: collection.content, position: refinement(metas, collection.id, 'group-position') };
  const calibre = (name: string) => metas.find((meta) => meta.name === name)?.content ?? null;
  return { name: calibre('calibre:series'), position: calibre('calibre:series_index') };
}

function manifestOf(pkg: unknown, opfDir: string): Map<string, ManifestItem> {
  const manifest = new Map<string, ManifestItem>();
  for (const item of children(child(pkg, 'manifest'), 'item')) {
    const id = attr(item, 'id');
    const href = attr(item, 'href');
    const path = href ? resolveHref(opfDir, href) : null;
    if (!id || !path) continue;
    manifest.set(id, {
      id,
      path,
      mediaType: attr(item, 'media-type') ?? 'application/octet-stream',
      properties: (attr(item, 'properties') ?? '').split(/\s+/).filter(Boolean),
    });
  }
  return manifest;
}

export function readPackageDocument(root: XmlNode, opfPath: string): PackageDocument | null {
  const pkg = child(root, 'package');
  if (!pkg) return null;
  const manifest = manifestOf(pkg, dirnameOf(opfPath));
  const spineNode = child(pkg, 'spine');
  const spine = children(spineNode, 'itemref')
    .map((ref) => manifest.get(attr(ref, 'idref') ?? ''))
    .filter((item): item is ManifestItem => item !== undefined);
  const metadataNode = child(pkg, 'metadata');
  const metas = readMetas(metadataNode);
  const items = [...manifest.values()];
  const legacyCover = metas.find((meta) => meta.name === 'cover')?.content ?? null;
  const coverImage =
    items.find((item) => item.properties.includes('cover-image')) ??
    (legacyCover ? (manifest.get(legacyCover) ?? items.find((item) => item.path.endsWith(legacyCover))) : undefined) ??
    null;
  const { name: seriesName, position } = series(metas);
  const { number, chapter } = parseBookNumber(position);
  const description = firstText(metadataNode, 'description');
  const metadata: BookMetadata = {
    ...emptyMetadata(),
    title: title(metadataNode, metas),
    summary: description ? stripMarkup(description) || null : null,
    series: seriesName,
    number,
    chapter,
    publisher: firstText(metadataNode, 'publisher'),
    ...releaseDate(metadataNode),
    isbn: isbnOf(metadataNode, metas),
    authors: people(metadataNode, metas),
    genres: [
      ...new Set(
        children(metadataNode, 'subject')
          .map(textOf)
          .filter((s): s is string => s !== null),
      ),
    ],
    language: firstText(metadataNode, 'language'),
    readingDirection: attr(spineNode, 'page-progression-direction') === 'rtl' ? 'rtl' : null,
  };
  const fixedLayout = metas.some((meta) => meta.property === 'rendition:layout' && meta.content === 'pre-paginated');
  return { manifest, spine, fixedLayout, coverImage, tocId: attr(spineNode, 'toc'), metadata };
}

/** The package document's path from META-INF/container.xml. */
export function rootfilePath(container: XmlNode): string | null {
  const rootfiles = children(child(child(container, 'container'), 'rootfiles'), 'rootfile');
  const opf = rootfiles.find((node) => attr(node, 'media-type') === 'application/oebps-package+xml') ?? rootfiles[0];
  const path = attr(opf, 'full-path');
  return path ? resolveHref('', path) : null;
}
