/**
 * The progression a Readium reader PUTs to Komga (`R2Progression`, as komga-client and Komga's web reader send
 * it; test/support/clients/komelia-epub.ts): `{modified, device: {id, name}, locator}`. The locator's
 * `locations` carry `fragments` (Komga) or `fragment` (komga-client), both kept as sent; unknown keys are kept.
 */
import { z } from 'zod';

const fraction = z.number().min(0, 'must be between 0 and 1').max(1, 'must be between 0 and 1');

export const R2ProgressionBodySchema = z.object({
  modified: z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time' }),
  device: z.object({ id: z.string().max(200), name: z.string().max(200) }).nullish(),
  locator: z
    .object({
      href: z.string().min(1, 'is required').max(2048),
      type: z.string().max(200).nullish(),
      title: z.string().max(1000).nullish(),
      locations: z
        .object({
          fragments: z.array(z.string().max(1000)).max(20).nullish(),
          fragment: z.array(z.string().max(1000)).max(20).nullish(),
          position: z.number().int('must be an integer').min(1, 'must be at least 1').nullish(),
          progression: fraction.nullish(),
          totalProgression: fraction.nullish(),
        })
        .loose()
        .nullish(),
      text: z
        .object({ before: z.string().nullish(), highlight: z.string().nullish(), after: z.string().nullish() })
        .nullish(),
      koboSpan: z.string().max(200).nullish(),
    })
    .loose(),
});
export type R2ProgressionBody = z.infer<typeof R2ProgressionBodySchema>;
