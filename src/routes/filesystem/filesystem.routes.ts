import { z } from '@hono/zod-openapi';
import { BrowseQuerySchema, BrowseResultSchema, DriveSchema } from '../../schemas/filesystem.schema';
import { contractsFor, json } from '../contract';

const route = contractsFor('Filesystem');

export const browse = route.get('/filesystem/browse', 'SystemAdmin', {
  summary: 'List the folders and files under a path of the library bucket (SystemAdmin)',
  description:
    'Folders are the common prefixes below `path` (delimiter "/"). R2 lists with cursors and cannot count a ' +
    'prefix, so pages follow `cursor` instead of the paginated envelope.',
  query: BrowseQuerySchema,
  responses: { 200: json(BrowseResultSchema, 'One page of the folder') },
  errors: [400],
});
export const drives = route.get('/filesystem/drives', 'SystemAdmin', {
  summary: 'The configured storage buckets (SystemAdmin)',
  responses: { 200: json(z.array(DriveSchema), 'Buckets') },
});
