/** The OpenAPI 3.1 document, generated from the same zod schemas the routes validate with. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../env';
import { VERSION } from '../version';

const API_PREFIX = '/api/v1';

export const OPENAPI_CONFIG: Parameters<OpenAPIHono['getOpenAPI31Document']>[0] = {
  openapi: '3.1.0',
  info: {
    title: 'Longbox API',
    version: VERSION,
    description:
      'Library server for comics, manga and ebooks. Errors use `{error, message, details}`; lists use the paginated envelope.',
  },
  servers: [{ url: API_PREFIX }],
};

export type OpenApiDocument = ReturnType<OpenAPIHono['getOpenAPI31Document']>;
type PathItem = NonNullable<OpenApiDocument['paths']>[string];
type Operation = NonNullable<PathItem['get']>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
const ERROR_CONTENT = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

/**
 * Answers any operation can give without its route declaring them: every request may fail with a 500,
 * and every JSON body passes the app-wide size limit first.
 */
const SHARED_RESPONSES = {
  InternalServerError: {
    description: 'Server error (the message carries the request id; no internals)',
    content: ERROR_CONTENT,
  },
  PayloadTooLarge: { description: 'JSON body larger than 1 MiB', content: ERROR_CONTENT },
};

export function registerOpenApi(app: OpenAPIHono<AppEnv>): void {
  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'Session token from POST /auth/login, or an API key',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKeyHeader', {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'basicAuth', {
    type: 'http',
    scheme: 'basic',
    description: 'username:password, or api:<API key>',
  });
  for (const [name, response] of Object.entries(SHARED_RESPONSES)) {
    app.openAPIRegistry.registerComponent('responses', name, response);
  }
}

/**
 * Paths in the document are relative to /api/v1 (the `servers` entry), as API.md writes them; a path
 * outside it (the OPDS catalog) carries its own server so it still resolves from the site root.
 */
export function buildOpenApiDocument(app: OpenAPIHono<AppEnv>): OpenApiDocument {
  const document = app.getOpenAPI31Document(OPENAPI_CONFIG);
  const paths: Record<string, PathItem> = {};
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) addSharedResponses(operation);
    }
    if (path.startsWith(API_PREFIX)) paths[path.slice(API_PREFIX.length) || '/'] = item;
    else paths[path] = { servers: [{ url: '/' }], ...item };
  }
  return { ...document, paths };
}

function addSharedResponses(operation: Operation): void {
  const responses = operation.responses ?? {};
  const body = operation.requestBody;
  const hasJsonBody = body && 'content' in body && 'application/json' in body.content;
  if (hasJsonBody) responses['413'] ??= { $ref: '#/components/responses/PayloadTooLarge' };
  responses['500'] ??= { $ref: '#/components/responses/InternalServerError' };
  operation.responses = responses;
}
