/**
 * OPDS 2.0 documents (DECISIONS.md §Reader apps; issue 9 point 2): feeds (`application/opds+json`) with
 * the same navigation and publications as OPDS 1.2, publication documents, the authentication
 * document, DiViNa manifests (one `readingOrder` link per page with its size) and Readium
 * progression. Every href is absolute: Readium-based parsers reject a relative `self`.
 */
import { BOOK_FILE_MEDIA_TYPES } from '../../services/book-file.service';
import type { ReadProgressRecord } from '../../repositories/read-progress.repository';
import { readerFacingDevice } from '../../mappers/book.mapper';
import { CONTRIBUTOR_KEY, contributorsByRole } from '../../mappers/contributor-roles';
import type { BookPageEntry } from '../../schemas/page.schema';
import { bookFileUrl, type CatalogFeed, CatalogLinks, type NavigationItem, type Publication } from '../catalog-model';
import { hasImagePages, isConvertiblePage, streamedPageType } from '../page-streaming';
import { PLACEHOLDER_PNG_HEIGHT, PLACEHOLDER_PNG_WIDTH } from '../../pages/placeholder-png';

export const OPDS2_BASE = '/opds/v2.0';
export const OPDS2_TYPE = 'application/opds+json';
export const PUBLICATION_TYPE = 'application/opds-publication+json';
export const AUTH_DOCUMENT_TYPE = 'application/opds-authentication+json';
export const DIVINA_TYPE = 'application/divina+json';
export const PROGRESSION_TYPE = 'application/vnd.readium.progression+json';
const PROGRESSION_REL = 'http://www.cantook.com/api/progression';
export const AUTH_DOCUMENT_REL = 'http://opds-spec.org/auth/document';
const WEBPUB_CONTEXT = 'https://readium.org/webpub-manifest/context.jsonld';
const DIVINA_PROFILE = 'https://readium.org/webpub-manifest/profiles/divina';

export interface Opds2Link {
  href: string;
  type?: string;
  rel?: string;
  title?: string;
  templated?: boolean;
  width?: number;
  height?: number;
}

/**
 * People under their OPDS 2 role keys (`author` for writers, `penciler`, `inker`, `colorist`, `letterer`,
 * `editor`, `translator`…); anyone else a `contributor` with the role as stored.
 */
function opds2Contributors(authors: readonly { name: string; role: string }[]): Record<string, unknown> {
  return Object.fromEntries(
    [...contributorsByRole(authors)].map(([key, people]) => [
      key,
      people.map((p) => (key === CONTRIBUTOR_KEY ? { name: p.name, role: p.role } : { name: p.name })),
    ]),
  );
}

export class Opds2Writer extends CatalogLinks {
  constructor(origin: string) {
    super(origin, OPDS2_BASE);
  }

  feed(feed: CatalogFeed) {
    const { self, paging } = this.feedLinks(feed);
    const links: Opds2Link[] = [
      { rel: 'self', href: self, type: OPDS2_TYPE },
      { rel: 'start', href: this.url('catalog'), type: OPDS2_TYPE, title: 'Longbox' },
      // RFC 6570 template, as Thorium expands it.
      { rel: 'search', href: `${this.url('search')}{?query}`, type: OPDS2_TYPE, templated: true },
      { rel: AUTH_DOCUMENT_REL, href: this.url('auth'), type: AUTH_DOCUMENT_TYPE },
      ...paging.map(({ rel, href }) => ({ rel, href, type: OPDS2_TYPE })),
    ];
    const metadata: Record<string, unknown> = { title: feed.title, modified: feed.updated };
    if (feed.paging) {
      const { page, pageSize, total } = feed.paging;
      Object.assign(metadata, { numberOfItems: total, itemsPerPage: pageSize, currentPage: page });
    }
    const document: Record<string, unknown> = { metadata, links };
    // A feed carries navigation, publications or both; an empty acquisition feed still has its list.
    if (feed.navigation.length > 0 || feed.kind === 'navigation') {
      document.navigation = feed.navigation.map((item) => this.navigationLink(item));
    }
    if (feed.kind === 'acquisition') document.publications = feed.publications.map((p) => this.publication(p));
    return document;
  }

  private navigationLink(item: NavigationItem): Opds2Link {
    return { href: this.url(item.path, item.query), title: item.title, type: OPDS2_TYPE, rel: 'subsection' };
  }

  publication({ book, extras }: Publication) {
    const metadata: Record<string, unknown> = {
      '@type': 'http://schema.org/Book',
      identifier: `urn:uuid:${book.id}`,
      title: book.title,
      modified: book.updatedAt,
      numberOfPages: book.pageCount,
      belongsTo: {
        series: [{ name: book.seriesName, ...(book.numberSort !== null ? { position: book.numberSort } : {}) }],
      },
    };
    Object.assign(metadata, opds2Contributors(extras.authors));
    if (extras.language) metadata.language = extras.language;
    if (extras.year !== null) metadata.published = String(extras.year);
    if (extras.publisher) metadata.publisher = extras.publisher;
    // The identifier stays the book's UUID (readers key progress on it); the ISBN is an alternative one.
    if (extras.isbn) metadata.altIdentifier = [`urn:isbn:${extras.isbn}`];
    const subjects = [...extras.genres, ...extras.tags];
    if (subjects.length > 0) metadata.subject = subjects.map((name) => ({ name }));
    if (book.summary) metadata.description = book.summary;
    const self: Opds2Link = { rel: 'self', href: this.url(`books/${book.id}`), type: PUBLICATION_TYPE };
    const acquisition: Opds2Link = {
      rel: 'http://opds-spec.org/acquisition',
      href: bookFileUrl(this.origin, book.id),
      type: BOOK_FILE_MEDIA_TYPES[book.fileFormat],
    };
    const progression: Opds2Link = {
      rel: PROGRESSION_REL,
      href: this.url(`books/${book.id}/progression`),
      type: PROGRESSION_TYPE,
    };
    // The reading manifest comes first, before `self`: several clients open the first link whose type is a
    // manifest type (Komga and Codex order them so), and `self` is one (issue 22).
    const links: Opds2Link[] = hasImagePages(book, extras)
      ? [
          { rel: 'alternate', href: this.url(`books/${book.id}/manifest`), type: DIVINA_TYPE, title: 'Read online' },
          self,
          acquisition,
          progression,
        ]
      : [acquisition, self, progression];
    // Every publication has a raster image (DECISIONS.md §Reader apps): Readium's parser (Thorium) and
    // the Palace parser reject one without `images`. A book without a cover gets the generated
    // placeholder of its kind; its own thumbnail URL would answer 404.
    const images = [
      extras.hasCover
        ? { href: this.url(`books/${book.id}/thumbnail`), type: 'image/jpeg', rel: 'cover' }
        : {
            href: this.url(`placeholders/${book.fileFormat}`),
            type: 'image/png',
            width: PLACEHOLDER_PNG_WIDTH,
            height: PLACEHOLDER_PNG_HEIGHT,
          },
    ];
    return { metadata, links, images };
  }

  /** A DiViNa manifest: the book as a sequence of images, in reading order. */
  divina({ book, extras }: Publication, pages: BookPageEntry[]) {
    const { type, convert } = streamedPageType(extras);
    const pageLink = (page: BookPageEntry): Opds2Link => {
      // A page the renderer cannot decode (AVIF, JPEG XL, BMP) is linked as it is stored, with its own type: asking for a
      // JPEG of it would answer 422 (issue 22: every link answers with the type it declares).
      const asStored = (!convert && page.mediaType === type) || !isConvertiblePage(page.mediaType);
      return {
        href: this.url(`books/${book.id}/pages/${page.number}`, asStored ? {} : { format: 'jpeg' }),
        type: asStored ? page.mediaType : 'image/jpeg',
        ...(page.width !== null ? { width: page.width } : {}),
        ...(page.height !== null ? { height: page.height } : {}),
      };
    };
    const metadata: Record<string, unknown> = {
      conformsTo: DIVINA_PROFILE,
      identifier: `urn:uuid:${book.id}`,
      title: book.title,
      modified: book.updatedAt,
      numberOfPages: pages.length,
      readingProgression:
        book.readingDirection === 'rtl'
          ? 'rtl'
          : book.readingDirection === 'ttb' || book.readingDirection === 'webtoon'
            ? 'ttb'
            : 'ltr',
    };
    Object.assign(metadata, opds2Contributors(extras.authors));
    if (extras.language) metadata.language = extras.language;
    return {
      '@context': WEBPUB_CONTEXT,
      metadata,
      links: [
        { rel: 'self', href: this.url(`books/${book.id}/manifest`), type: DIVINA_TYPE },
        { rel: PROGRESSION_REL, href: this.url(`books/${book.id}/progression`), type: PROGRESSION_TYPE },
      ],
      readingOrder: pages.map(pageLink),
      ...(extras.hasCover
        ? { resources: [{ href: this.url(`books/${book.id}/thumbnail`), type: 'image/jpeg', rel: 'cover' }] }
        : {}),
    };
  }

  authDocument() {
    return {
      id: this.url('auth'),
      title: 'Longbox',
      description: 'Sign in with your Longbox username and password, or with username "api" and an API key',
      links: [{ rel: 'start', href: this.url('catalog'), type: OPDS2_TYPE }],
      authentication: [
        {
          type: 'http://opds-spec.org/auth/basic',
          labels: { login: 'Username (or api)', password: 'Password (or API key)' },
        },
      ],
    };
  }

  /**
   * Readium progression of a stored progress: the page as a position (and its image as href) for books
   * with image pages; the percentage as totalProgression, and the stored locator, for ebooks.
   */
  progression(bookId: string, record: ReadProgressRecord, book: { pageCount: number; imagePages: boolean }) {
    const percentage = record.progressPercentage ?? record.currentPage / Math.max(book.pageCount, 1);
    return {
      modified: record.updatedAt,
      device: readerFacingDevice(record),
      locator: {
        href: book.imagePages
          ? this.url(`books/${bookId}/pages/${record.currentPage}`)
          : bookFileUrl(this.origin, bookId),
        type: book.imagePages ? 'image/jpeg' : 'application/epub+zip',
        locations: {
          position: record.currentPage,
          progression: percentage,
          totalProgression: percentage,
          ...(record.locator ? { fragments: [record.locator] } : {}),
        },
      },
    };
  }

  /** An error as an RFC 9457 problem document. */
  problem(status: number, title: string, detail: string) {
    return { type: 'about:blank', title, status, detail };
  }
}
