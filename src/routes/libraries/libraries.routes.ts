import { createRoute } from '@hono/zod-openapi';
import { AUTH_ERRORS, errorResponses, jsonBody, jsonContent } from '../../lib/openapi-responses';
import { authenticate } from '../../middleware/authenticate';
import {
  CreateLibraryBodySchema,
  LibraryListSchema,
  LibrarySchema,
  UpdateLibraryBodySchema,
} from '../../schemas/library.schema';
import { IdParamSchema } from '../../schemas/path-params.schema';

const tags = ['Libraries'];
const security: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { apiKeyHeader: [] }, { basicAuth: [] }];

export const listLibraries = createRoute({
  method: 'get',
  path: '/libraries',
  tags,
  security,
  summary: 'List libraries (LibrariesRead)',
  description: 'Every library, ordered by name. Not paginated: API.md marks only series and book lists as paginated.',
  middleware: [authenticate('LibrariesRead')] as const,
  responses: { 200: jsonContent(LibraryListSchema, 'All libraries'), ...errorResponses(...AUTH_ERRORS) },
});

export const createLibrary = createRoute({
  method: 'post',
  path: '/libraries',
  tags,
  security,
  summary: 'Create a library (LibrariesWrite)',
  description:
    '`path` is a key prefix in the library bucket. It may not equal, contain or sit inside another ' +
    "library's prefix (409), and names are unique ignoring case (409).",
  middleware: [authenticate('LibrariesWrite')] as const,
  request: { body: jsonBody(CreateLibraryBodySchema) },
  responses: {
    201: jsonContent(LibrarySchema, 'The new library'),
    ...errorResponses(400, ...AUTH_ERRORS, 409),
  },
});

export const getLibrary = createRoute({
  method: 'get',
  path: '/libraries/{id}',
  tags,
  security,
  summary: 'A library with its series and book counts (LibrariesRead)',
  middleware: [authenticate('LibrariesRead')] as const,
  request: { params: IdParamSchema },
  responses: { 200: jsonContent(LibrarySchema, 'The library'), ...errorResponses(400, ...AUTH_ERRORS, 404) },
});

export const updateLibrary = createRoute({
  method: 'put',
  path: '/libraries/{id}',
  tags,
  security,
  summary: 'Change a library (LibrariesWrite); omitted fields stay as they are',
  middleware: [authenticate('LibrariesWrite')] as const,
  request: { params: IdParamSchema, body: jsonBody(UpdateLibraryBodySchema) },
  responses: {
    200: jsonContent(LibrarySchema, 'The updated library'),
    ...errorResponses(400, ...AUTH_ERRORS, 404, 409),
  },
});

export const deleteLibrary = createRoute({
  method: 'delete',
  path: '/libraries/{id}',
  tags,
  security,
  summary: 'Delete a library (LibrariesDelete)',
  description:
    'Removes the library and its series, books, pages and reading progress from the catalog. The files in ' +
    'the bucket are never touched.',
  middleware: [authenticate('LibrariesDelete')] as const,
  request: { params: IdParamSchema },
  responses: { 204: { description: 'Deleted' }, ...errorResponses(400, ...AUTH_ERRORS, 404) },
});
