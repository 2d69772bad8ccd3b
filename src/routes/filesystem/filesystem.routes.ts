import { createRoute, z } from '@hono/zod-openapi';
import { AUTH_ERRORS, errorResponses, jsonContent } from '../../lib/openapi-responses';
import { authenticate } from '../../middleware/authenticate';
import { BrowseQuerySchema, BrowseResultSchema, DriveSchema } from '../../schemas/filesystem.schema';

const tags = ['Filesystem'];
const security: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { apiKeyHeader: [] }, { basicAuth: [] }];

export const browse = createRoute({
  method: 'get',
  path: '/filesystem/browse',
  tags,
  security,
  summary: 'List the folders and files under a path of the library bucket (SystemAdmin)',
  description:
    'Folders are the common prefixes below `path` (delimiter "/"). R2 lists with cursors and cannot count a ' +
    'prefix, so pages follow `cursor` instead of the paginated envelope.',
  middleware: [authenticate('SystemAdmin')] as const,
  request: { query: BrowseQuerySchema },
  responses: { 200: jsonContent(BrowseResultSchema, 'One page of the folder'), ...errorResponses(400, ...AUTH_ERRORS) },
});

export const drives = createRoute({
  method: 'get',
  path: '/filesystem/drives',
  tags,
  security,
  summary: 'The configured storage buckets (SystemAdmin)',
  middleware: [authenticate('SystemAdmin')] as const,
  responses: { 200: jsonContent(z.array(DriveSchema), 'Buckets'), ...errorResponses(...AUTH_ERRORS) },
});
