/**
 * OPDS 1.2 Atom documents (DECISIONS.md §Reader apps): navigation and acquisition feeds with
 * first/previous/next/last paging, entries with cover, thumbnail and acquisition links, OPDS-PSE 1.2
 * stream links, the OpenSearch description, and errors as Atom feeds. Every href is absolute.
 */
import { BOOK_FILE_MEDIA_TYPES } from '../../services/book-file.service';
import { bookFileUrl, type CatalogFeed, CatalogLinks, type NavigationItem, type Publication } from '../catalog-model';
import { contributorsByRole } from '../../mappers/contributor-roles';
import { hasImagePages, streamedPageType } from '../page-streaming';
import { element, text, XML_DECLARATION } from '../xml';

export const OPDS1_BASE = '/opds/v1.2';
export const NAVIGATION_TYPE = 'application/atom+xml;profile=opds-catalog;kind=navigation';
export const ACQUISITION_TYPE = 'application/atom+xml;profile=opds-catalog;kind=acquisition';
export const OPENSEARCH_TYPE = 'application/opensearchdescription+xml';
const PSE_NAMESPACE = 'http://vaemendis.net/opds-pse/ns';
const PSE_STREAM_REL = 'http://vaemendis.net/opds-pse/stream';

const NAMESPACES = {
  xmlns: 'http://www.w3.org/2005/Atom',
  'xmlns:opds': 'http://opds-spec.org/2010/catalog',
  'xmlns:pse': PSE_NAMESPACE,
  'xmlns:dc': 'http://purl.org/dc/terms/',
  'xmlns:opensearch': 'http://a9.com/-/spec/opensearch/1.1/',
};

const feedType = (kind: CatalogFeed['kind']) => (kind === 'navigation' ? NAVIGATION_TYPE : ACQUISITION_TYPE);

const link = (rel: string, href: string, type?: string, extra: Record<string, string | number | undefined> = {}) =>
  element('link', { rel, href, type, ...extra });

const author = (name: string) => element('author', {}, text('name', name));
const contributor = (name: string) => element('contributor', {}, text('name', name));

/** Writers are the entry's `atom:author`s; pencillers, inkers, colorists, editors… its `atom:contributor`s. */
const people = (authors: readonly { name: string; role: string }[]) =>
  [...contributorsByRole(authors)].flatMap(([key, list]) =>
    list.map((a) => (key === 'author' ? author(a.name) : contributor(a.name))),
  );

/** Genres and tags as Atom categories (the scheme tells them apart). */
const categories = (extras: { genres: string[]; tags: string[] }) => [
  ...extras.genres.map((g) => element('category', { term: g, label: g, scheme: 'urn:longbox:genre' })),
  ...extras.tags.map((t) => element('category', { term: t, label: t, scheme: 'urn:longbox:tag' })),
];

export class AtomFeedWriter extends CatalogLinks {
  constructor(origin: string) {
    super(origin, OPDS1_BASE);
  }

  feed(feed: CatalogFeed): string {
    const type = feedType(feed.kind);
    const { self, paging: pages } = this.feedLinks(feed);
    const links = [
      link('self', self, type),
      link('start', this.url('catalog'), NAVIGATION_TYPE, { title: 'Longbox' }),
      link('search', this.url('opensearch.xml'), OPENSEARCH_TYPE, { title: 'Search' }),
      link('alternate', new URL('/opds/v2.0/catalog', this.origin).toString(), 'application/opds+json'),
      ...pages.map(({ rel, href }) => link(rel, href, type)),
    ];
    const paging: string[] = [];
    if (feed.paging) {
      const { page, pageSize, total } = feed.paging;
      paging.push(
        text('opensearch:totalResults', String(total)),
        text('opensearch:itemsPerPage', String(pageSize)),
        text('opensearch:startIndex', String((page - 1) * pageSize + 1)),
      );
    }
    return (
      XML_DECLARATION +
      element(
        'feed',
        NAMESPACES,
        text('id', feed.id),
        text('title', feed.title),
        text('updated', feed.updated),
        author('Longbox'),
        ...links,
        ...paging,
        ...feed.navigation.map((item) => this.navigationEntry(item)),
        ...feed.publications.map((publication) => this.bookEntry(publication)),
      )
    );
  }

  private navigationEntry(item: NavigationItem): string {
    const cover = item.thumbnailPath ? this.url(item.thumbnailPath) : undefined;
    return element(
      'entry',
      {},
      text('title', item.title),
      text('id', item.id),
      text('updated', item.updated),
      text('content', item.summary ?? item.title, { type: 'text' }),
      link('subsection', this.url(item.path, item.query), feedType(item.target)),
      cover ? link('http://opds-spec.org/image', cover, 'image/jpeg') : '',
      cover ? link('http://opds-spec.org/image/thumbnail', cover, 'image/jpeg') : '',
    );
  }

  private bookEntry({ book, extras }: Publication): string {
    const cover = this.url(`books/${book.id}/thumbnail`);
    const parts = [
      text('title', book.title),
      text('id', `urn:uuid:${book.id}`),
      text('updated', book.updatedAt),
      ...people(extras.authors),
      ...categories(extras),
      extras.isbn ? text('dc:identifier', `urn:isbn:${extras.isbn}`) : '',
      extras.language ? text('dc:language', extras.language) : '',
      extras.year !== null ? text('dc:issued', String(extras.year)) : '',
      extras.publisher ? text('dc:publisher', extras.publisher) : '',
      book.summary ? text('summary', book.summary, { type: 'text' }) : '',
      text('content', describe(book.seriesName, book.fileFormat, book.pageCount), { type: 'text' }),
      // No cover, no link: the URL would answer 404, which some apps show as a broken image.
      extras.hasCover ? link('http://opds-spec.org/image', cover, 'image/jpeg') : '',
      extras.hasCover ? link('http://opds-spec.org/image/thumbnail', cover, 'image/jpeg') : '',
      link(
        'http://opds-spec.org/acquisition',
        bookFileUrl(this.origin, book.id),
        BOOK_FILE_MEDIA_TYPES[book.fileFormat],
        {
          length: book.fileSize,
          title: 'Download',
        },
      ),
    ];
    if (hasImagePages(book, extras)) parts.push(this.streamLink(book.id, book.pageCount, extras, book.readProgress));
    return element('entry', {}, ...parts);
  }

  /**
   * OPDS-PSE 1.2: `{pageNumber}` (0-based) and `{maxWidth}` stay literal, KOReader replaces them as
   * plain text; `pse:lastRead` counts from 1 and is left out without progress.
   */
  private streamLink(
    bookId: string,
    pageCount: number,
    extras: Publication['extras'],
    progress: Publication['book']['readProgress'],
  ): string {
    const { type, convert } = streamedPageType(extras);
    const href = `${this.url(`books/${bookId}/pages/`)}{pageNumber}?width={maxWidth}${convert ? '&format=jpeg' : ''}`;
    return link(PSE_STREAM_REL, href, type, {
      'pse:count': pageCount,
      'pse:lastRead': progress ? Math.min(progress.currentPage, pageCount) : undefined,
      'pse:lastReadDate': progress?.updatedAt,
    });
  }

  openSearch(): string {
    return (
      XML_DECLARATION +
      element(
        'OpenSearchDescription',
        { xmlns: 'http://a9.com/-/spec/opensearch/1.1/' },
        text('ShortName', 'Longbox'),
        text('Description', 'Search series and books in Longbox'),
        text('InputEncoding', 'UTF-8'),
        text('OutputEncoding', 'UTF-8'),
        // `{searchTerms}` is the OpenSearch template variable: it must stay unescaped. The result is a
        // navigation feed: one entry per kind of match, each its own paged feed.
        element('Url', {
          type: NAVIGATION_TYPE,
          template: `${this.url('search')}?query={searchTerms}`,
        }),
      )
    );
  }

  /** An error as an Atom feed, so an app that only parses Atom still shows the message. */
  error(message: string, updated: string): string {
    return (
      XML_DECLARATION +
      element(
        'feed',
        { xmlns: NAMESPACES.xmlns },
        text('id', 'urn:longbox:opds:error'),
        text('title', message),
        text('updated', updated),
        author('Longbox'),
        link('start', this.url('catalog'), NAVIGATION_TYPE),
      )
    );
  }
}

function describe(series: string, format: string, pages: number): string {
  return `${series} · ${format.toUpperCase()} · ${pages} page${pages === 1 ? '' : 's'}`;
}
