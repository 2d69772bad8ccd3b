/**
 * Komga's Readium endpoints (issue 22; test/support/clients/komelia-epub.ts transcribes Komga's and
 * Komelia's sources): the Readium Web Publication manifest of a book, its position list, the EPUB's
 * resources one entry at a time, and the progression Komelia and Komga's web reader save. Everything an
 * EPUB request needs was read once at analysis (books.readium_index); a resource is one ranged R2 read.
 * Progression shares the user's one progress record with the API: the Readium locator is kept, as JSON,
 * in the API's `locator` (DECISIONS.md §Reader apps), its href exactly as the reader sent it.
 */
import { EPUB_RESOURCE_CSP } from '../http/security-headers';
import { AppError, badRequest, conflict, notFound, unauthorized } from '../lib/errors';
import { analyzeBook } from '../media';
import type { JsonValue } from '../media/container';
import {
  type ReadiumIndex,
  type ReadiumPosition,
  type ReadiumResource,
  type ReadiumTocEntry,
  readiumIndexOf,
  readiumPositionList,
} from '../media/epub/readium-index';
import { r2RangeReader } from '../media/range-reader';
import { readerFacingDevice } from '../mappers/book.mapper';
import { contributorsByRole } from '../mappers/contributor-roles';
import { inlineDisposition } from '../pages/content-disposition';
import type { MediaResponse } from '../pages/media-response';
import { completesAtPage, isPageInRange, isReflowable, lastPage } from '../progress/rules';
import type { BookMediaRepository } from '../repositories/book-media.repository';
import { CatalogWriter } from '../repositories/catalog-writer.repository';
import type { ReadProgressRecord } from '../repositories/read-progress.repository';
import { type Viewer, viewerOf, WHOLE_CATALOG_ACCESS } from '../repositories/visibility';
import type { ProgressActor, ReadProgressService } from '../services/read-progress.service';
import type { Database } from '../db/client';
import type { BookPageEntry } from '../schemas/page.schema';
import { openEpubResource } from '../storage/epub-resource';
import type { KomgaBook } from './komga.dto';
import type { R2ProgressionBody } from './komga-readium.dto';

/** `interfaces/api/dto/Constants.kt`. */
export const READIUM_TYPES = {
  webpub: 'application/webpub+json',
  divina: 'application/divina+json',
  positionList: 'application/vnd.readium.position-list+json',
  progression: 'application/vnd.readium.progression+json',
} as const;

export const PROFILES = {
  divina: 'https://readium.org/webpub-manifest/profiles/divina',
  epub: 'https://readium.org/webpub-manifest/profiles/epub',
} as const;

const CONTEXT = 'https://readium.org/webpub-manifest/context.jsonld';
const ACQUISITION = 'http://opds-spec.org/acquisition';

/** The stored locator may hold at most this much (the API's `locator` limit, API.md §2). */
const LOCATOR_MAX_CHARS = 4096;

/**
 * Komga's resource headers (`CommonBookController.getBookEpubResource`, `infrastructure/web/Utils.kt`); its
 * Content-Security-Policy is made stricter (EPUB_RESOURCE_CSP, DECISIONS.md §Security).
 */
const RESOURCE_CACHE_CONTROL = 'max-age=0, must-revalidate, private';

/**
 * Whom an anonymous font request reads the catalog as: it names no user, so no library or content rule can
 * apply; what it may fetch is limited by anonymousFont to font entries instead.
 */
const FONT_LOADER = viewerOf({ user: { id: 'anonymous-font-loader' }, access: WHOLE_CATALOG_ACCESS });

/**
 * Font media types as OPF manifests declare them (EPUB 3 core media types, and the older names EPUB 2 books
 * use). Komga goes by file extension and includes `.svg`, which is as often an illustration as a font: an
 * SVG is not exempt here.
 */
const FONT_TYPES = new Set([
  'application/font-sfnt',
  'application/font-woff',
  'application/font-woff2',
  'application/vnd.ms-opentype',
  'application/vnd.ms-fontobject',
  'application/x-font-otf',
  'application/x-font-ttf',
  'application/x-font-truetype',
  'application/x-font-opentype',
  'application/x-font-woff',
]);
export const isFontType = (mediaType: string) => {
  const type = mediaType.toLowerCase().split(';')[0]?.trim() ?? '';
  return type.startsWith('font/') || FONT_TYPES.has(type);
};

/** A readium link as Komga writes it (`@JsonInclude(NON_EMPTY)`: nothing empty is sent). */
interface WPLink {
  title?: string;
  rel?: string;
  href: string;
  type?: string;
  width?: number;
  height?: number;
  children?: WPLink[];
}

/**
 * A manifest as Komga writes it (`interfaces/api/dto/WepPub.kt` `WPPublicationDto`, `@JsonInclude(NON_NULL)`):
 * every list is written, empty ones too (`images`, `resources`, `toc`, `landmarks`, `pageList`), so a
 * client decoding Komga's OpenAPI document (which requires them all) never meets a missing key. Komga's
 * `images` is always empty (`WebPubGenerator` never fills it); Longbox reads no landmarks or page list.
 * Komga also lists the book's thumbnail first among `resources`; Longbox does not, because a coverless
 * book's thumbnail answers 404 on `/komga`.
 */
function publication(parts: {
  metadata: Record<string, unknown>;
  links: WPLink[];
  readingOrder: WPLink[];
  resources?: WPLink[];
  toc?: WPLink[];
}) {
  return {
    context: CONTEXT,
    metadata: parts.metadata,
    links: parts.links,
    images: [] as WPLink[],
    readingOrder: parts.readingOrder,
    resources: parts.resources ?? [],
    toc: parts.toc ?? [],
    landmarks: [] as WPLink[],
    pageList: [] as WPLink[],
  };
}

/** Spring's `UriComponentsBuilder.path(…)`: bytes outside RFC 3986 `pchar` and `/` become `%XX`. */
const PATH_ALLOWED = /[A-Za-z0-9\-._~!$&'()*+,;=:@/]/;
export function encodeEntryPath(path: string): string {
  let out = '';
  for (const char of path) {
    if (PATH_ALLOWED.test(char)) out += char;
    else
      for (const byte of new TextEncoder().encode(char)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** kotlin.time `Instant.toString()`: whole seconds without a fraction. */
const instant = (iso: string) => iso.replace(/\.000Z$/, 'Z');

/** `{server}/api/v1/books/{id}/resource/`, as a manifest href starts. */
const RESOURCE_URL_BASE = /^https?:\/\/[^#]*?\/api\/v1\/books\/[^/]+\/resource\//;

const decodePath = (path: string) => {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
};

type ReadiumBook = NonNullable<Awaited<ReturnType<BookMediaRepository['readiumBook']>>>;

export class KomgaReadiumService {
  constructor(
    private readonly repo: BookMediaRepository,
    private readonly db: Database,
    private readonly library: R2Bucket,
    private readonly progress: ReadProgressService,
  ) {}

  /** The book (404 when the viewer cannot see it) and, for an EPUB, its index (built once when missing). */
  private async book(viewer: Viewer, id: string): Promise<{ book: ReadiumBook; index: ReadiumIndex | null }> {
    const book = await this.repo.readiumBook(viewer, id);
    if (!book || book.deletedAt) throw notFound('Book');
    if (book.fileFormat !== 'epub') return { book, index: null };
    const stored = readiumIndexOf(book.readiumIndex as JsonValue | null);
    if (stored) return { book, index: stored };
    return { book, index: await this.rebuildIndex(book) };
  }

  /**
   * A book analysed before the index was stored: its package document is read once more (range reads of
   * the directory and OPF) and the index recorded, so later requests read nothing of the file.
   */
  private async rebuildIndex(book: ReadiumBook): Promise<ReadiumIndex> {
    const analysis = await analyzeBook('epub', await r2RangeReader(this.library, book.path, book.fileSize)).catch(
      () => null,
    );
    const index = readiumIndexOf(analysis?.readiumIndex ?? null);
    if (!index) throw new AppError('Conflict', 'The EPUB cannot be read; analyse the book again');
    await new CatalogWriter(this.db).readiumIndexRecorded(book.id, index);
    return index;
  }

  private async epub(viewer: Viewer, id: string) {
    const found = await this.book(viewer, id);
    if (!found.index) throw badRequest('Book media type is not EPUB');
    return { book: found.book, index: found.index };
  }

  // ---- manifest ------------------------------------------------------------------------------------------

  /**
   * `GET …/manifest`: the EPUB manifest for an EPUB, the DiViNa manifest for comics and PDFs (Komga's profiles).
   * The book's DTO and its stored index are read at once (two D1 reads side by side, not one after the other).
   */
  async manifest(
    viewer: Viewer,
    id: string,
    book: () => Promise<KomgaBook>,
    pages: () => Promise<BookPageEntry[]>,
    server: string,
  ) {
    const [dto, { index }] = await Promise.all([book(), this.book(viewer, id)]);
    if (dto.media.mediaProfile === 'EPUB' && index) return this.epubDocument(dto, index, server);
    return this.divinaManifest(dto, await pages(), server);
  }

  /** `GET …/manifest/epub`: 400 for a book that is not an EPUB. */
  async epubManifest(viewer: Viewer, id: string, book: () => Promise<KomgaBook>, server: string) {
    const [dto, { index }] = await Promise.all([book(), this.epub(viewer, id)]);
    return this.epubDocument(dto, index, server);
  }

  private epubDocument(dto: KomgaBook, index: ReadiumIndex, server: string) {
    const bookUrl = `${server}/api/v1/books/${dto.id}`;
    const link = (resource: ReadiumResource): WPLink => ({
      href: `${bookUrl}/resource/${encodeEntryPath(resource.path)}`,
      type: resource.mediaType,
    });
    const inSpine = new Set(index.spine);
    const toc = (entries: ReadiumTocEntry[]): WPLink[] =>
      entries.map((entry) => {
        const [path = '', fragment] = entry.href.split('#');
        const href = `${bookUrl}/resource/${encodeEntryPath(path)}${fragment === undefined ? '' : `#${fragment}`}`;
        return { title: entry.title, href, ...(entry.children.length ? { children: toc(entry.children) } : {}) };
      });
    const links: WPLink[] = [{ rel: 'self', href: `${bookUrl}/manifest`, type: READIUM_TYPES.webpub }];
    if (dto.media.epubDivinaCompatible) links.push({ href: `${bookUrl}/manifest/divina`, type: READIUM_TYPES.divina });
    links.push({ rel: ACQUISITION, href: `${bookUrl}/file`, type: dto.media.mediaType });
    return publication({
      metadata: {
        ...this.metadata(dto),
        conformsTo: PROFILES.epub,
        rendition: { layout: index.fixedLayout ? 'fixed' : 'reflowable' },
      },
      links,
      readingOrder: index.spine.map((i) => link(index.resources[i]!)),
      resources: index.resources.filter((_, i) => !inSpine.has(i)).map(link),
      toc: toc(index.toc),
    });
  }

  divinaManifest(dto: KomgaBook, pages: BookPageEntry[], server: string) {
    const bookUrl = `${server}/api/v1/books/${dto.id}`;
    return publication({
      metadata: { ...this.metadata(dto), conformsTo: PROFILES.divina },
      links: [
        { rel: 'self', href: `${bookUrl}/manifest`, type: READIUM_TYPES.divina },
        { rel: ACQUISITION, href: `${bookUrl}/file`, type: dto.media.mediaType },
      ],
      readingOrder: pages.map((page) => ({
        href: `${bookUrl}/pages/${page.number}`,
        type: page.mediaType,
        ...(page.width ? { width: page.width } : {}),
        ...(page.height ? { height: page.height } : {}),
      })),
    });
  }

  /** `WebPubGenerator.toBasePublicationDto`'s metadata: empty values are left out, as Komga's NON_EMPTY does. */
  private metadata(dto: KomgaBook) {
    const m = dto.metadata;
    const people = Object.fromEntries(
      [...contributorsByRole(m.authors)].map(([key, list]) => [key, list.map((a) => a.name)]),
    );
    return {
      title: m.title,
      ...(m.isbn ? { identifier: `urn:isbn:${m.isbn}` } : {}),
      ...(m.summary ? { description: m.summary } : {}),
      numberOfPages: dto.media.pagesCount,
      modified: instant(dto.lastModified),
      ...(m.releaseDate ? { published: m.releaseDate } : {}),
      ...(m.tags.length ? { subject: m.tags } : {}),
      ...people,
      belongsTo: { series: [{ name: dto.seriesTitle, position: m.numberSort }] },
    };
  }

  // ---- positions -------------------------------------------------------------------------------------------

  async positions(viewer: Viewer, id: string, pages: () => Promise<BookPageEntry[]>, server: string) {
    const { book, index } = await this.book(viewer, id);
    const positions = index ? readiumPositionList(index) : imagePositions(book.id, await pages(), server);
    return { total: positions.length, positions };
  }

  // ---- resources -------------------------------------------------------------------------------------------

  /**
   * One entry of the EPUB, by the path of `/resource/{path}` (percent-decoded, equal to an OPF manifest
   * item's entry path), streamed from one ranged read, typed with the OPF media type.
   */
  async resource(viewer: Viewer, id: string, rawPath: string, ifModifiedSince?: string): Promise<MediaResponse> {
    const { book, index } = await this.epub(viewer, id);
    const path = decodePath(rawPath);
    const resource = index.resources.find((r) => r.path === path);
    if (!resource) throw notFound(`Resource ${path}`);
    return this.serveResource(book, resource, path, ifModifiedSince);
  }

  /**
   * A font of an EPUB for a request without credentials (DECISIONS.md §Reader apps, "Fonts without
   * credentials"): a reader's CSS `@font-face` load carries no Authorization header, so Komga serves an
   * EPUB's fonts to anyone. Only an entry the OPF declares as a font, of a live EPUB; anything else is the
   * 401 every request without credentials gets (so it tells nothing about which books exist).
   */
  async anonymousFont(id: string, rawPath: string, ifModifiedSince?: string): Promise<MediaResponse> {
    const found = await this.book(FONT_LOADER, id).catch(() => null);
    let path: string;
    try {
      path = decodePath(rawPath);
    } catch {
      throw unauthorized('Authentication required');
    }
    const resource = found?.index?.resources.find((r) => r.path === path);
    if (!found || !resource || !isFontType(resource.mediaType)) throw unauthorized('Authentication required');
    return this.serveResource(found.book, resource, path, ifModifiedSince);
  }

  private async serveResource(
    book: ReadiumBook,
    resource: ReadiumResource,
    path: string,
    ifModifiedSince: string | undefined,
  ): Promise<MediaResponse> {
    const lastModified = new Date(book.updatedAt);
    const fileName = path.split('/').pop() ?? path;
    const headers: Record<string, string> = {
      'Content-Type': resource.mediaType || 'application/octet-stream',
      'Content-Disposition': inlineDisposition(fileName),
      'Content-Security-Policy': EPUB_RESOURCE_CSP,
      'Cache-Control': RESOURCE_CACHE_CONTROL,
      'Last-Modified': lastModified.toUTCString(),
    };
    const since = ifModifiedSince ? Date.parse(ifModifiedSince) : Number.NaN;
    if (!Number.isNaN(since) && Math.floor(lastModified.getTime() / 1000) <= Math.floor(since / 1000)) {
      return { status: 304, headers, body: null };
    }
    const bytes = await openEpubResource(this.library, book, resource);
    if (bytes.kind !== 'stream') throw new AppError('NotFound', `Resource ${path} not found`);
    return { status: 200, headers: { ...headers, 'Content-Length': String(resource.size) }, body: bytes.stream };
  }

  // ---- progression -----------------------------------------------------------------------------------------

  /** `GET …/progression`: null (204) without progress; else the stored locator, or one made from the page. */
  async getProgression(viewer: Viewer, id: string, pages: () => Promise<BookPageEntry[]>, server: string) {
    const { book, index } = await this.book(viewer, id);
    const record = await this.progress.find(viewer, book);
    if (!record) return null;
    const stored = storedLocator(record);
    return {
      modified: instant(record.updatedAt),
      device: readerFacingDevice(record),
      // Komga reads the locator into its R2Locator and writes it back `@JsonInclude(NON_EMPTY)`
      // (domain/model/R2Locator.kt): a null a reader sent (`title: null`) is never written back.
      locator: stored ? withoutNulls(stored) : await this.locatorOfPage(book, index, record, pages, server),
    };
  }

  /** Progress written without a Readium locator (the API, KOReader, page reading): the position of its page. */
  private async locatorOfPage(
    book: ReadiumBook,
    index: ReadiumIndex | null,
    record: ReadProgressRecord,
    pages: () => Promise<BookPageEntry[]>,
    server: string,
  ) {
    const positions =
      index && isReflowable(book) ? readiumPositionList(index) : imagePositions(book.id, await pages(), server);
    const position = positions[Math.min(positions.length, Math.max(1, record.currentPage)) - 1];
    if (!position) return {};
    // The position as stored, its koboSpan with it (as Komga's markProgression copies the matched one).
    return record.progressPercentage === null
      ? position
      : { ...position, locations: { ...position.locations, totalProgression: record.progressPercentage } };
  }

  /**
   * `PUT …/progression` (Komga's `BookLifecycle.markProgression`): an older `modified` → 409; an EPUB's locator
   * must name one of its entries and carry `progression`, and its place in the book is the stored position of
   * that entry at or before it; a book with image pages moves to `position`. The locator is stored as sent,
   * with the matched position's type and totalProgression.
   */
  async putProgression(actor: ProgressActor, id: string, body: R2ProgressionBody): Promise<void> {
    const { book, index } = await this.book(actor.viewer, id);
    const stored = await this.progress.find(actor.viewer, book);
    const modified = Date.parse(body.modified);
    if (stored && modified < Date.parse(stored.updatedAt)) {
      throw conflict('Progression is older than existing');
    }
    const at = new Date(Math.min(modified, Date.now())).toISOString();
    const device = body.device ?? undefined;
    const locations = body.locator.locations ?? {};
    if (index && isReflowable(book)) {
      // Komelia strips the resource URL's base before sending; a reader that does not sends it whole.
      const path = decodePath((body.locator.href.split('#')[0] ?? '').replace(RESOURCE_URL_BASE, ''));
      if (!index.resources.some((r) => r.path === path)) {
        throw badRequest(`locator.href does not name a resource of this book: ${body.locator.href}`, [
          { path: 'locator.href', message: 'is not a resource of this book' },
        ]);
      }
      if (locations.progression == null) {
        throw badRequest('locator.locations.progression is required for an EPUB', [
          { path: 'locator.locations.progression', message: 'is required' },
        ]);
      }
      const matched = positionAt(readiumPositionList(index), path, locations.progression);
      if (!matched) {
        throw badRequest(`No position of ${path} holds progression ${locations.progression}`, [
          { path: 'locator.locations.progression', message: 'matches no position' },
        ]);
      }
      const total = matched.locations.totalProgression;
      const locator = {
        ...body.locator,
        type: matched.type,
        koboSpan: body.locator.koboSpan ?? matched.koboSpan,
        locations: { ...locations, totalProgression: total },
      };
      await this.progress.record(actor, book, {
        currentPage: Math.min(lastPage(book.pageCount), Math.max(1, Math.round(book.pageCount * total))),
        completed: total >= 0.99,
        percentage: total,
        locator: fitLocator(locator),
        at,
        device,
      });
      return;
    }
    const pageCount = lastPage(book.pageCount);
    const position = locations.position;
    if (position == null || !isPageInRange(position, pageCount)) {
      throw badRequest(`locator.locations.position must be between 1 and ${pageCount}`, [
        { path: 'locator.locations.position', message: `must be between 1 and ${pageCount}` },
      ]);
    }
    await this.progress.record(actor, book, {
      currentPage: position,
      completed: completesAtPage(position, pageCount),
      locator: fitLocator(body.locator),
      at,
      device,
    });
  }
}

/** Positions of a book with image pages: one per page, its href the page's URL. */
function imagePositions(bookId: string, pages: BookPageEntry[], server: string): ReadiumPosition[] {
  return pages.map((page, i) => ({
    href: `${server}/api/v1/books/${bookId}/pages/${page.number}`,
    type: page.mediaType,
    locations: { progression: 0, position: i + 1, totalProgression: Math.fround((i + 1) / pages.length) },
  }));
}

/** The last stored position of `path` at or before `progression` within it (compared as Kotlin Floats, as Komga). */
function positionAt(positions: ReadiumPosition[], path: string, progression: number): ReadiumPosition | undefined {
  const wanted = Math.fround(progression);
  let found: ReadiumPosition | undefined;
  for (const position of positions) {
    if (position.href === path && position.locations.progression <= wanted) found = position;
  }
  return found;
}

/** The locator as the API's `locator` string: the text excerpts give way first when it is too long. */
function fitLocator(locator: Record<string, unknown>): string {
  const whole = JSON.stringify(locator);
  if (whole.length <= LOCATOR_MAX_CHARS) return whole;
  const { text: _text, title: _title, ...lean } = locator;
  const leaner = JSON.stringify(lean);
  if (leaner.length <= LOCATOR_MAX_CHARS) return leaner;
  throw badRequest(`The locator is longer than ${LOCATOR_MAX_CHARS} characters`, [
    { path: 'locator', message: `is longer than ${LOCATOR_MAX_CHARS} characters` },
  ]);
}

/** The value with its null members left out, at every depth (Jackson's NON_NULL/NON_EMPTY on Komga's DTOs). */
function withoutNulls(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) {
    if (member === null || member === undefined) continue;
    out[key] =
      typeof member === 'object' && !Array.isArray(member) ? withoutNulls(member as Record<string, unknown>) : member;
  }
  return out;
}

/** A Readium locator stored by a progression PUT (JSON with an href), else null (an xpointer, a CFI, nothing). */
export function storedLocator(record: Pick<ReadProgressRecord, 'locator'>): Record<string, unknown> | null {
  if (!record.locator?.startsWith('{')) return null;
  try {
    const value = JSON.parse(record.locator) as unknown;
    return value && typeof value === 'object' && typeof (value as { href?: unknown }).href === 'string'
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
