/**
 * ComicInfo.xml (the Anansi/ComicRack schema) → book metadata. A ComicInfo that does not parse is
 * ignored: the pages are still readable, so the book is not failed for it.
 */
import { ageOfRating } from './age-rating';
import { type BookAnalysis, type BookAuthor, type BookMetadata, emptyMetadata, type StoryArc } from './container';
import { normalizeIsbn } from './isbn';
import { parseWebLinks } from './web-links';
import { attr, child, childText, children, parseXml } from './xml';

/** ComicInfo files are a few KiB; anything this large is not one. */
export const COMIC_INFO_MAX_SIZE = 1024 * 1024;

const ROLES: Array<[element: string, role: string]> = [
  ['Writer', 'writer'],
  ['Penciller', 'penciller'],
  ['Inker', 'inker'],
  ['Colorist', 'colorist'],
  ['Letterer', 'letterer'],
  ['CoverArtist', 'cover'],
  ['Editor', 'editor'],
  ['Translator', 'translator'],
];

const splitList = (value: string | null): string[] =>
  value
    ? [
        ...new Set(
          value
            .split(',')
            .map((item) => item.trim())
            .filter(Boolean),
        ),
      ]
    : [];

function integer(value: string | null, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER): number | null {
  if (!value || !/^-?\d+$/.test(value)) return null;
  const n = Number(value);
  return n >= min && n <= max ? n : null;
}

/** `12.5` → chapter 12.5 and number 12; `12` → both 12; anything else (`1a`, `½`) → null. */
export function parseBookNumber(value: string | null): { number: number | null; chapter: number | null } {
  const text = value?.replace(',', '.').trim();
  if (!text || !/^-?\d+(\.\d+)?$/.test(text)) return { number: null, chapter: null };
  const chapter = Number(text);
  return { number: Math.trunc(chapter), chapter };
}

/**
 * `StoryArc` and `StoryArcNumber`, comma-separated and zipped by position (Komga's reading): `"Civil War,
 * Heroes"` with `"3,1"` is book 3 of Civil War and book 1 of Heroes. An arc without a whole number beside it
 * has none (it is appended to its read list); an arc named twice counts once.
 */
export function parseStoryArcs(arcs: string | null, numbers: string | null): StoryArc[] {
  const positions = (numbers ?? '').split(',').map((n) => n.trim());
  const seen = new Set<string>();
  return (arcs ?? '').split(',').flatMap((raw, index) => {
    const name = raw.trim();
    if (name === '' || seen.has(name.toLowerCase())) return [];
    seen.add(name.toLowerCase());
    return [{ name, number: integer(positions[index] ?? null, 0, 1_000_000) }];
  });
}

export interface ComicInfo {
  metadata: BookMetadata;
  /** 0-based index into the page list of the page marked FrontCover, if any. */
  coverIndex: number | null;
}

/**
 * The metadata and cover page a ComicInfo.xml (or its absence) gives a comic of `pageCount` pages: its
 * FrontCover index is 0-based, and one past the last page is ignored.
 */
export function comicInfoFields(
  info: ComicInfo | null,
  pageCount: number,
): Pick<BookAnalysis, 'metadata' | 'coverPage'> {
  const coverIndex = info?.coverIndex;
  return {
    metadata: info?.metadata ?? emptyMetadata(),
    coverPage: coverIndex != null && coverIndex < pageCount ? coverIndex + 1 : null,
  };
}

export function parseComicInfo(bytes: Uint8Array): ComicInfo | null {
  const root = child(parseXml(bytes), 'ComicInfo');
  if (!root || typeof root !== 'object') return null;
  const text = (name: string) => childText(root, name);
  const metadata = emptyMetadata();
  const { number, chapter } = parseBookNumber(text('Number'));
  const authors: BookAuthor[] = ROLES.flatMap(([element, role]) =>
    splitList(text(element)).map((name) => ({ name, role })),
  );
  const manga = text('Manga');
  const year = integer(text('Year'), 1000, 9999);
  // A month or day means nothing without its year (a release date is built from all three).
  const month = year === null ? null : integer(text('Month'), 1, 12);
  Object.assign(metadata, {
    title: text('Title'),
    summary: text('Summary'),
    number,
    chapter,
    volume: integer(text('Volume'), 0),
    series: text('Series'),
    seriesGroup: text('SeriesGroup'),
    publisher: text('Publisher'),
    imprint: text('Imprint'),
    year,
    month,
    day: month === null ? null : integer(text('Day'), 1, 31),
    authors,
    genres: splitList(text('Genre')),
    tags: splitList(text('Tags')),
    characters: splitList(text('Characters')),
    teams: splitList(text('Teams')),
    locations: splitList(text('Locations')),
    // GTIN is any trade barcode (EAN-13, UPC); only one that is an ISBN is kept as the book's ISBN.
    isbn: normalizeIsbn(text('GTIN')),
    format: text('Format'),
    count: integer(text('Count'), 0),
    links: parseWebLinks(text('Web')),
    language: text('LanguageISO'),
    readingDirection: manga === 'YesAndRightToLeft' ? 'rtl' : manga === 'No' ? 'ltr' : null,
    storyArcs: parseStoryArcs(text('StoryArc'), text('StoryArcNumber')),
    ageRating: ageOfRating(text('AgeRating')),
  } satisfies Partial<BookMetadata>);
  const cover = children(child(root, 'Pages'), 'Page').find((page) => attr(page, 'Type') === 'FrontCover');
  return { metadata, coverIndex: integer(attr(cover, 'Image'), 0) };
}
