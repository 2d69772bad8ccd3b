/**
 * The Readium progression document a reader app PUTs (issue 9 point 2; Komga's R2Progression):
 * `{modified, device: {id, name}, locator: {href, type, locations: {position?, progression?,
 * totalProgression?, fragments?}}}`. Unknown fields are allowed: Readium clients send more than this.
 */
import { z } from '@hono/zod-openapi';
import { ProgressLocatorSchema } from '../../schemas/read-progress.schema';

const fraction = z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1');

export const ProgressionBodySchema = z.object({
  modified: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }),
  device: z.object({ id: z.string().max(200), name: z.string().max(200) }).optional(),
  locator: z.object({
    href: z.string().max(2048),
    type: z.string().max(200).optional(),
    locations: z
      .object({
        position: z.number().int('must be an integer').min(1, 'must be at least 1').optional(),
        progression: fraction.optional(),
        totalProgression: fraction.optional(),
        fragments: z.array(ProgressLocatorSchema).max(1).optional(),
      })
      .default({}),
  }),
});
export type ProgressionBody = z.infer<typeof ProgressionBodySchema>;
