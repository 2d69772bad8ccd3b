/**
 * Pagination shared by every list endpoint (API.md §2 Paginated envelope, §4 Pagination parameters,
 * DECISIONS.md §Lists): 1-indexed `page`, `pageSize` (default 50, clamped to 500), legacy `page_size`
 * on GET endpoints only, and `links` that are URL paths carrying page and pageSize.
 */
import { z } from '@hono/zod-openapi';
import { badRequest } from './errors';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

const positiveIntText = (name: string) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a positive integer`)
    .optional()
    .openapi({ param: { name, in: 'query' }, example: name === 'page' ? '1' : '50' });

/** Query parameters of POST list endpoints (pagination lives in the query string there too). */
export const PageQuerySchema = z.object({
  page: positiveIntText('page'),
  pageSize: positiveIntText('pageSize'),
});

/** Query parameters of GET list endpoints: adds the legacy `page_size` alias. */
export const GetPageQuerySchema = PageQuerySchema.extend({
  page_size: positiveIntText('page_size'),
});

export interface PageRequest {
  page: number;
  pageSize: number;
  offset: number;
}

export function toPageRequest(query: { page?: string; pageSize?: string; page_size?: string }): PageRequest {
  const page = query.page === undefined ? 1 : Number(query.page);
  const sizeText = query.pageSize ?? query.page_size;
  const requested = sizeText === undefined ? DEFAULT_PAGE_SIZE : Number(sizeText);
  if (!Number.isSafeInteger(page) || page < 1) {
    throw badRequest('page must be at least 1', [{ path: 'page', message: 'must be an integer >= 1' }]);
  }
  if (!Number.isSafeInteger(requested) || requested < 1) {
    const path = query.pageSize !== undefined ? 'pageSize' : 'page_size';
    throw badRequest(`${path} must be at least 1`, [{ path, message: 'must be an integer >= 1' }]);
  }
  const pageSize = Math.min(requested, MAX_PAGE_SIZE);
  return { page, pageSize, offset: (page - 1) * pageSize };
}

export const PageLinksSchema = z.object({
  self: z.string(),
  first: z.string(),
  last: z.string(),
  prev: z.string().nullable(),
  next: z.string().nullable(),
});

export function pageEnvelopeSchema<T extends z.ZodType>(item: T, name: string) {
  return z
    .object({
      data: z.array(item),
      page: z.number().int().min(0),
      pageSize: z.number().int().min(0),
      total: z.number().int().min(0),
      totalPages: z.number().int().min(0),
      links: PageLinksSchema,
    })
    .openapi(name);
}

export interface PageEnvelope<T> {
  data: T[];
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
  links: z.infer<typeof PageLinksSchema>;
}

/**
 * Builds the envelope. `requestUrl` is the request's URL: links keep its path and other query
 * parameters, replace the legacy alias with `pageSize`, and carry the effective (clamped) size.
 */
export function pageEnvelope<T>(requestUrl: string, request: PageRequest, data: T[], total: number): PageEnvelope<T> {
  const totalPages = Math.ceil(total / request.pageSize);
  const lastPage = Math.max(totalPages, 1);
  const url = new URL(requestUrl);
  const link = (page: number) => {
    const params = new URLSearchParams(url.search);
    params.delete('page_size');
    params.set('page', String(page));
    params.set('pageSize', String(request.pageSize));
    return `${url.pathname}?${params.toString()}`;
  };
  return {
    data,
    page: request.page,
    pageSize: request.pageSize,
    total,
    totalPages,
    links: {
      self: link(request.page),
      first: link(1),
      last: link(lastPage),
      prev: request.page > 1 ? link(Math.min(request.page - 1, lastPage)) : null,
      next: request.page < totalPages ? link(request.page + 1) : null,
    },
  };
}
