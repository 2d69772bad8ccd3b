/**
 * OpenAPI entries of the upload routes. Their `{path}` spans several segments, which `createRoute`
 * cannot express, so the handlers are plain Hono routes and only their contract is registered here.
 */
import { z } from '@hono/zod-openapi';
import { AUTH_ERRORS, errorResponses, jsonBody, jsonContent } from '../../lib/openapi-responses';
import { IdParamSchema } from '../../schemas/path-params.schema';
import {
  CompleteMultipartBodySchema,
  MultipartUploadSchema,
  UploadedFileSchema,
  UploadedPartSchema,
  UploadQuerySchema,
} from '../../schemas/upload.schema';

export const FILE_ROUTE_PATH = '/libraries/{id}/files/{path}';

const tags = ['Libraries'];
const security: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { apiKeyHeader: [] }, { basicAuth: [] }];
const params = IdParamSchema.extend({
  path: z.string().openapi({
    param: { name: 'path', in: 'path' },
    description: 'File path inside the library; may contain "/" (e.g. Series/Volume 01.cbz)',
  }),
});
const rawBody = {
  required: true,
  content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } },
};

export const FILE_ROUTES = [
  {
    method: 'put',
    path: FILE_ROUTE_PATH,
    tags,
    security,
    summary: 'Upload a book file, or one part of a multipart upload (LibrariesWrite)',
    description:
      'Without `uploadId`: the raw body (Content-Length required) is streamed into the bucket under the ' +
      'library prefix. Only .cbz, .cbr, .epub, .pdf, .zip and .rar files; an existing object is a 409 unless ' +
      '`overwrite=true`. With `uploadId` and `partNumber`: uploads one part (every part but the last at ' +
      'least 5 MiB, all of the same size).',
    request: { params, query: UploadQuerySchema, body: rawBody },
    responses: {
      200: jsonContent(UploadedPartSchema, 'Part stored (with uploadId)'),
      201: jsonContent(UploadedFileSchema, 'File stored'),
      ...errorResponses(400, ...AUTH_ERRORS, 404, 409),
    },
  },
  {
    method: 'post',
    path: FILE_ROUTE_PATH,
    tags,
    security,
    summary: 'Start (`?uploads`) or complete (`?uploadId=`) a multipart upload (LibrariesWrite)',
    request: { params, query: UploadQuerySchema, body: { ...jsonBody(CompleteMultipartBodySchema), required: false } },
    responses: {
      200: jsonContent(MultipartUploadSchema, 'Multipart upload started'),
      201: jsonContent(UploadedFileSchema, 'Multipart upload completed: the file is stored'),
      ...errorResponses(400, ...AUTH_ERRORS, 404, 409),
    },
  },
  {
    method: 'delete',
    path: FILE_ROUTE_PATH,
    tags,
    security,
    summary: 'Abort a multipart upload (`?uploadId=`, LibrariesWrite); stored files are never deleted',
    request: { params, query: UploadQuerySchema },
    responses: { 204: { description: 'Aborted' }, ...errorResponses(400, ...AUTH_ERRORS, 404) },
  },
] as const;
