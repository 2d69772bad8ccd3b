/**
 * Which EPUBs are picture books (DECISIONS.md §Books): a fixed-layout book, or one whose spine items
 * are all images or XHTML pages wrapping exactly one image, gets one page per spine item serving that
 * image. Everything else is reflowable and counted in Readium positions.
 */
import { imageMediaType } from '../image-types';
import type { RangeReader } from '../range-reader';
import type { ZipEntry } from '../zip/directory';
import { readEntryBytes } from '../zip/entry';
import type { ManifestItem } from './package-document';
import { dirnameOf, resolveHref } from './paths';

/** An XHTML page that only wraps an image is a few hundred bytes; larger ones hold text. */
const WRAPPER_MAX_SIZE = 64 * 1024;
/** Spine documents read at once while looking for page images. */
const CONCURRENCY = 8;
/** Readium: one position per 1024 bytes of each reflowable resource (at least one). */
const POSITION_BYTES = 1024;

const IMAGE_REF = /<(?:img|image)\b[^>]*?\s(?:src|xlink:href|href)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;
const decoder = new TextDecoder('utf-8');

interface SpineDocument {
  images: ZipEntry[];
  hasText: boolean;
}

export type EntryLookup = (path: string) => ZipEntry | undefined;

function bodyText(html: string): string {
  const body = html.match(/<body\b[^>]*>([\s\S]*)<\/body>/i)?.[1] ?? html;
  return body
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, '')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;|&#160;|&#xa0;/gi, '')
    .trim();
}

async function readSpineDocument(
  reader: RangeReader,
  item: ManifestItem,
  entry: ZipEntry,
  find: EntryLookup,
): Promise<SpineDocument> {
  const html = decoder.decode(await readEntryBytes(reader, entry, WRAPPER_MAX_SIZE));
  const images = new Map<string, ZipEntry>();
  for (const match of html.matchAll(IMAGE_REF)) {
    const path = resolveHref(dirnameOf(item.path), match[1] ?? match[2] ?? '');
    const image = path ? find(path) : undefined;
    if (image && imageMediaType(image.name)) images.set(image.name, image);
  }
  return { images: [...images.values()], hasText: bodyText(html) !== '' };
}

/**
 * One image entry per spine item, or null when the book is not a picture book. Fixed-layout pages
 * may carry text (accessibility overlays) and several images: the largest image is the page.
 */
export async function spineImages(
  reader: RangeReader,
  spine: ManifestItem[],
  fixedLayout: boolean,
  find: EntryLookup,
): Promise<ZipEntry[] | null> {
  const entries = spine.map((item) => find(item.path));
  if (entries.some((entry) => !entry)) return null;
  // Cheap rejection before any read: a large spine document is text, not an image wrapper.
  if (!fixedLayout && entries.some((entry, i) => !imageMediaType(spine[i]!.path) && entry!.size > WRAPPER_MAX_SIZE)) {
    return null;
  }
  const pages: ZipEntry[] = [];
  for (let start = 0; start < spine.length; start += CONCURRENCY) {
    const batch = spine.slice(start, start + CONCURRENCY);
    const found = await Promise.all(
      batch.map(async (item, i): Promise<ZipEntry | null> => {
        const entry = entries[start + i]!;
        if (imageMediaType(entry.name)) return entry;
        if (entry.size > WRAPPER_MAX_SIZE) return null;
        const document = await readSpineDocument(reader, item, entry, find).catch(() => null);
        if (!document || document.images.length === 0) return null;
        if (!fixedLayout && (document.images.length > 1 || document.hasText)) return null;
        return document.images.reduce((a, b) => (b.size > a.size ? b : a));
      }),
    );
    if (found.some((entry) => entry === null)) return null;
    pages.push(...(found as ZipEntry[]));
  }
  return pages;
}

/** Readium positions of a reflowable book: per spine item ceil(uncompressed size / 1024), at least 1. */
export function readiumPositions(spine: ManifestItem[], find: EntryLookup, fixedLayout: boolean): number {
  let total = 0;
  for (const item of spine) {
    const entry = find(item.path);
    if (!entry) continue;
    total += fixedLayout ? 1 : Math.max(1, Math.ceil(entry.size / POSITION_BYTES));
  }
  return total;
}
