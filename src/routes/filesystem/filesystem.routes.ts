import { z } from '@hono/zod-openapi';
import { BrowseQuerySchema, BrowseResultSchema, DriveSchema } from '../../schemas/filesystem.schema';
import { contractsFor, json } from '../contract';

const filesystem = contractsFor('Filesystem');
const BROWSE =
  'Folders are the common prefixes below `path` (delimiter "/"). R2 lists with cursors and cannot count a ' +
  'prefix, so pages follow `cursor` instead of the paginated envelope.';

// biome-ignore format: a table of endpoints, one per line
export const contracts = {
  browse: filesystem.get('/filesystem/browse', 'SystemAdmin', { summary: 'List the folders and files under a path of the library bucket (SystemAdmin)', description: BROWSE, query: BrowseQuerySchema, 200: json(BrowseResultSchema, 'One page of the folder'), errors: [400] }),
  drives: filesystem.get('/filesystem/drives', 'SystemAdmin', { summary: 'The configured storage buckets (SystemAdmin)', 200: json(z.array(DriveSchema), 'Buckets') }),
};
