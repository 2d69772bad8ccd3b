/** Path parameters shared by resource routes: a malformed id is a 400, an unknown one a 404 (DECISIONS.md §Errors). */
import { z } from '@hono/zod-openapi';

export const IdParamSchema = z.object({
  id: z
    .uuid('must be a UUID')
    .openapi({ param: { name: 'id', in: 'path' }, example: '0b9a6c1e-5f4d-4c1e-9a39-3f1c2b7d8e90' }),
});
