/**
 * Route contracts from the few facts that tell them apart: method, path, who may call, summary, the
 * request parts and the responses by status. What every route of a resource shares — its OpenAPI tag,
 * the accepted credentials, the authentication guard and the 401/403 it implies — is added here, so a
 * contract file is a table of endpoints, one per line. The result is `createRoute`'s, typed as
 * precisely (the handlers' `c.req.valid` and `c.json` are checked against it) and documented identically.
 */
import { createRoute, type RouteConfig, type z } from '@hono/zod-openapi';
import type { Requirement } from '../auth/permissions';
import type { ErrorStatus } from '../lib/errors';
import { errorResponses, jsonBody, jsonContent, SECURITY } from '../lib/openapi-responses';
import { authenticate } from '../middleware/authenticate';
import type { Speculation } from '../middleware/caller';

/** Who may call: a permission (or any of several), any signed-in caller, or anyone. */
export type Access = Requirement | 'signed-in' | 'public';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Response = RouteConfig['responses'][number];
type RequestBody = NonNullable<NonNullable<RouteConfig['request']>['body']>;

/** What differs between routes of one resource. */
export interface RouteFacts {
  summary: string;
  description?: string;
  params?: z.ZodType;
  query?: z.ZodType;
  headers?: z.ZodType;
  /** A JSON body (required), or a request body as createRoute takes it. */
  body?: z.ZodType | RequestBody;
  /** Error statuses the route answers besides those its access implies (401, 403). */
  errors?: readonly ErrorStatus[];
  /** Credentials the document lists, when not every kind (API.md §5) is accepted. */
  security?: Array<Record<string, string[]>>;
  /** What of the handler may run before the credential check returns (middleware/caller.ts); default `reads`. */
  speculation?: Speculation;
  /** The success (and other non-error) responses by status, e.g. `200: json(Schema, 'description')`. */
  [status: number]: Response;
}

/** The responses among the facts: their numeric keys. */
type ResponsesOf<F> = { [K in keyof F as K extends number ? K : never]: F[K] };

/** The statuses an access rule implies: a guard answers 401, and 403 when it checks a permission. */
const ACCESS_ERRORS = (access: Access): ErrorStatus[] =>
  access === 'public' ? [] : access === 'signed-in' ? [401] : [401, 403];

/** A part the facts name, or undefined (typed so that Hono sees no input there). */
type Part<F, K extends string> = F extends { [key in K]: infer V } ? V : undefined;
type JsonBodyOf<B> = B extends z.ZodType ? ReturnType<typeof jsonBody<B>> : B;

type RequestOf<F extends RouteFacts> = {
  params: Part<F, 'params'>;
  query: Part<F, 'query'>;
  headers: Part<F, 'headers'>;
  body: JsonBodyOf<Part<F, 'body'>>;
};

/** The contract createRoute would return for these facts. */
export type ContractOf<M extends Method, P extends string, F extends RouteFacts> = ReturnType<
  typeof createRoute<
    P,
    {
      method: M;
      path: P;
      request: RequestOf<F>;
      responses: ResponsesOf<F> & ReturnType<typeof errorResponses<ErrorStatus>>;
    }
  >
>;

const isSchema = (body: RouteFacts['body']): body is z.ZodType => body !== undefined && !('content' in body);

function contract<const M extends Method, const P extends string, const F extends RouteFacts>(
  tag: string,
  method: M,
  path: P,
  access: Access,
  facts: F,
): ContractOf<M, P, F> {
  const { summary, description, params, query, headers, body, errors = [], security, speculation } = facts;
  const responses = Object.fromEntries(Object.entries(facts).filter(([key]) => /^\d{3}$/.test(key)));
  const request = {
    ...(params ? { params } : {}),
    ...(query ? { query } : {}),
    ...(headers ? { headers } : {}),
    ...(body ? { body: isSchema(body) ? jsonBody(body) : body } : {}),
  };
  const config = {
    method,
    path,
    tags: [tag],
    ...(access === 'public' ? {} : { security: security ?? SECURITY }),
    summary,
    ...(description ? { description } : {}),
    ...(access === 'public'
      ? {}
      : { middleware: [authenticate(access === 'signed-in' ? undefined : access, { speculation })] as const }),
    ...(Object.keys(request).length > 0 ? { request } : {}),
    responses: { ...responses, ...errorResponses(...errors, ...ACCESS_ERRORS(access)) },
  } as RouteConfig;
  return createRoute(config) as unknown as ContractOf<M, P, F>;
}

export type ContractBuilders = ReturnType<typeof contractsFor>;

/** The contract builders of one resource (its OpenAPI tag): `routes.get(path, access, facts)`… */
export function contractsFor(tag: string) {
  const of =
    <const M extends Method>(method: M) =>
    <const P extends string, const F extends RouteFacts>(path: P, access: Access, facts: F) =>
      contract(tag, method, path, access, facts);
  return { get: of('get'), post: of('post'), put: of('put'), patch: of('patch'), delete: of('delete') };
}

/** A JSON response: its schema and what it is. */
export const json = jsonContent;

/** A response without a body (204, 304). */
export const empty = (description: string) => ({ description });

/** A JSON body the client may leave out. */
export const optionalJsonBody = <T extends z.ZodType>(schema: T) => ({
  required: false,
  content: { 'application/json': { schema } },
});
