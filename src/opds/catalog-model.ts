/**
 * What an OPDS feed holds, independent of its serialization: the OPDS 1.2 (Atom) and OPDS 2.0 (JSON)
 * catalogs are the same feeds (DECISIONS.md §Reader apps), built once by OpdsCatalogService and
 * written by v1/atom-feed.ts and v2/json-feed.ts. Paths are relative to the version's base URL.
 */
import type { BookExtras } from '../repositories/book-extras.repository';
import type { BookDto } from '../schemas/book.schema';

export type { BookExtras };

/** A navigation entry: a link to another feed. */
export interface NavigationItem {
  id: string;
  title: string;
  /** Relative to the catalog base, e.g. `series/<id>`. */
  path: string;
  /** Query parameters of the linked feed (a search's terms). */
  query?: Record<string, string>;
  /** The linked feed's kind, for the Atom link type. */
  target: 'navigation' | 'acquisition';
  summary?: string;
  updated: string;
  /** A cover, relative to the catalog base (series covers). */
  thumbnailPath?: string;
}

export interface Publication {
  book: BookDto;
  extras: BookExtras;
}

export interface Paging {
  page: number;
  pageSize: number;
  total: number;
}

export interface CatalogFeed {
  /** A stable URN. */
  id: string;
  title: string;
  /** Relative to the catalog base, without query, e.g. `series` or `libraries/<id>/books`. */
  path: string;
  /** Query parameters that select this feed (search terms), kept on page links. */
  query?: Record<string, string>;
  kind: 'navigation' | 'acquisition';
  updated: string;
  navigation: NavigationItem[];
  publications: Publication[];
  /** Present on paged feeds: first/previous/next/last links come from it. */
  paging?: Paging;
}

export const lastPageOf = (paging: Paging) => Math.max(1, Math.ceil(paging.total / paging.pageSize));

export type PagingRel = 'first' | 'last' | 'previous' | 'next';

/**
 * What both versions' writers link with: absolute URLs under the version's base (`/opds/v1.2`,
 * `/opds/v2.0`; links must resolve from any client), and a feed's own URL and, when it is paged, its
 * first/last/previous/next pages, keeping its query.
 */
export class CatalogLinks {
  /** `origin` is the request's (scheme, host, port). */
  constructor(
    protected readonly origin: string,
    private readonly base: string,
  ) {}

  url(path: string, query: Record<string, string | number> = {}): string {
    const url = new URL(`${this.base}/${path}`, this.origin);
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, String(value));
    return url.toString();
  }

  protected feedLinks(feed: CatalogFeed) {
    const pageUrl = (page: number) =>
      this.url(feed.path, { ...feed.query, ...(feed.paging ? { page, pageSize: feed.paging.pageSize } : {}) });
    const self = feed.paging ? pageUrl(feed.paging.page) : this.url(feed.path, feed.query);
    const paging: Array<{ rel: PagingRel; href: string }> = [];
    if (feed.paging) {
      const { page } = feed.paging;
      const last = lastPageOf(feed.paging);
      paging.push({ rel: 'first', href: pageUrl(1) }, { rel: 'last', href: pageUrl(last) });
      if (page > 1) paging.push({ rel: 'previous', href: pageUrl(Math.min(page - 1, last)) });
      if (page < last) paging.push({ rel: 'next', href: pageUrl(page + 1) });
    }
    return { self, paging };
  }
}

/** An `urn:uuid:` id for a catalog object, or a `urn:longbox:` one for a fixed feed. */
export const uuidUrn = (id: string) => `urn:uuid:${id}`;
export const feedUrn = (name: string) => `urn:longbox:opds:${name}`;

/**
 * Where an acquisition link points: the API's own GET /books/{id}/file (issue 9), which takes the same
 * credentials and challenges in the same realm (middleware/authenticate.ts).
 */
export const bookFileUrl = (origin: string, bookId: string) =>
  new URL(`/api/v1/books/${bookId}/file`, origin).toString();
