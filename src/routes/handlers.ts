/**
 * Handler shapes the routes share: every paginated list (API.md §2 Paginated envelope, §4 Pagination
 * parameters: the page the query asks for, the service's page of results for the caller, the envelope
 * with its links), every answer that is one service call's result, and every action answered with 204.
 * A route file says only which service call it makes.
 */
import type { RouteConfig, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../env';
import { type PageRequest, pageEnvelope, toPageRequest } from '../lib/pagination';
import type { Principal } from '../auth/principal';
import type { Viewer } from '../repositories/visibility';
import type { ListResult } from '../services/catalog-list';
import type { Services } from '../composition-root';
import { requestViewer } from '../http/progress-actor';
import { whenChecked } from '../middleware/caller';

type QueryOf<R> = R extends { request: { query: infer S extends z.ZodType } } ? z.output<S> : never;
type ParamsOf<R> = R extends { request: { params: infer S extends z.ZodType } } ? z.output<S> : undefined;
type JsonOf<R> = R extends {
  request: { body: { content: { 'application/json': { schema: infer S extends z.ZodType } } } };
}
  ? z.output<S>
  : undefined;

/** The JSON a route answers with this status (its schema's input: what the handler hands to `c.json`). */
type ResponseOf<R, S> = R extends {
  responses: { [K in S & number]: { content: { 'application/json': { schema: infer Z extends z.ZodType } } } };
}
  ? z.input<Z>
  : never;
type Handled = Context<AppEnv, string, any>;

/** What a handler is made from: the request's services and viewer, its query, path parameters and JSON body. */
export interface RouteRequest<R> {
  services: Services;
  /** Who asks: for services that check a permission beyond the route's own (sharing tags: UsersWrite). */
  principal: Principal;
  viewer: Viewer;
  query: QueryOf<R>;
  body: JsonOf<R>;
  /** The path parameters, when the path has some. */
  param: ParamsOf<R>;
  /**
   * Resolves once the caller's credential is checked (middleware/caller.ts `whenChecked`): a `checked-writes`
   * route's service awaits it between its reads and its writes.
   */
  checked: () => Promise<void>;
}

/** What a list is made from: a route request and the `library_id` of its query, as fixed-order lists take it. */
export interface ListRequest<R> extends RouteRequest<R> {
  scope: { libraryId?: string };
}

function routeRequest<R extends RouteConfig>(c: Handled, route: R): RouteRequest<R> {
  return {
    services: c.get('services'),
    principal: c.get('principal'),
    viewer: requestViewer(c),
    query: (route.request?.query ? c.req.valid('query') : undefined) as QueryOf<R>,
    body: (route.request?.body ? c.req.valid('json') : undefined) as JsonOf<R>,
    param: (route.request?.params ? c.req.valid('param') : undefined) as ParamsOf<R>,
    checked: () => whenChecked(c),
  };
}

/** `.openapi(...answer(route, (request) => service call))`: the call's result as JSON, with status 200 or the one given. */
export function answer<R extends RouteConfig, const S extends ContentfulStatusCode = 200>(
  route: R,
  call: (request: RouteRequest<R>) => Promise<ResponseOf<R, S>>,
  status: S = 200 as S,
) {
  const handler = async (c: Handled) => c.json(await call(routeRequest(c, route)), status);
  return [route, handler] as const;
}

/** `.openapi(...act(route, (request) => service call))`: an action without a response body, 204 once it is done. */
export function act<R extends RouteConfig>(route: R, call: (request: RouteRequest<R>) => Promise<unknown>) {
  const handler = async (c: Handled) => noContent(c, call(routeRequest(c, route)));
  return [route, handler] as const;
}

/** `.openapi(...paged(route, (request, page) => service call))`: the route and its handler. */
export function paged<R extends RouteConfig, T>(
  route: R,
  list: (request: ListRequest<R>, page: PageRequest) => Promise<ListResult<T>>,
) {
  const handler = async (c: Handled) => {
    const request = routeRequest(c, route);
    const query = request.query as { page?: string; pageSize?: string; library_id?: string };
    const page = toPageRequest(query);
    const { data, total } = await list({ ...request, scope: { libraryId: query.library_id } }, page);
    return c.json(pageEnvelope(c.req.url, page, data, total), 200);
  };
  return [route, handler] as const;
}

type ScopedList<T> = (viewer: Viewer, scope: { libraryId?: string }, page: PageRequest) => Promise<ListResult<T>>;
/** The methods of a service that list in a fixed order, scoped by library only. */
type ScopedListMethod<S> = { [M in keyof S]: S[M] extends ScopedList<unknown> ? M : never }[keyof S];
type ItemOf<F> = F extends ScopedList<infer T> ? T : never;

/** A fixed-order list (in progress, on deck, recently…): `service.method(viewer, {libraryId}, page)`. */
export function scopedList<R extends RouteConfig, K extends keyof Services, M extends ScopedListMethod<Services[K]>>(
  route: R,
  service: K,
  method: M,
) {
  return paged(route, ({ services, viewer, scope }, page) =>
    (services[service][method] as ScopedList<ItemOf<Services[K][M]>>).call(services[service], viewer, scope, page),
  );
}

/** An action without a response body: 204 once it is done. */
export async function noContent(c: Handled, action: Promise<unknown>) {
  await action;
  return c.body(null, 204);
}
