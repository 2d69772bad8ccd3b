/** The OpenAPI 3.1 document, generated from the same zod schemas the routes validate with. */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../env';
import { VERSION } from '../version';

export const OPENAPI_CONFIG: Parameters<OpenAPIHono['getOpenAPI31Document']>[0] = {
  openapi: '3.1.0',
  info: {
    title: 'Longbox API',
    version: VERSION,
    description:
      'Library server for comics, manga and ebooks. Errors use `{error, message, details}`; lists use the paginated envelope.',
  },
  servers: [{ url: '/api/v1' }],
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
}

/** Paths in the document are relative to /api/v1 (the `servers` entry), as API.md writes them. */
export function buildOpenApiDocument(app: OpenAPIHono<AppEnv>) {
  const document = app.getOpenAPI31Document(OPENAPI_CONFIG);
  const paths: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    paths[path.startsWith('/api/v1') ? path.slice('/api/v1'.length) || '/' : path] = item;
  }
  return { ...document, paths };
}
