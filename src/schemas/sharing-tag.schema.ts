/**
 * Sharing tags on the wire (Codex-rs's shapes; Komga calls them sharing labels): the tags an admin puts
 * on series, and users' grants of them (allow or deny). docs/DECISIONS.md §Organise and share has the rule.
 */
import { z } from '@hono/zod-openapi';
import { acceptTwins } from '../lib/body';
import { pageEnvelopeSchema } from '../lib/pagination';

export const AccessModeSchema = z.enum(['allow', 'deny']).openapi('AccessMode', {
  description:
    'allow: with any allowed tag, the user sees only series carrying one (or passing an ALLOW_ONLY age); deny: series carrying it are hidden',
});

const TagNameSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters')
  .openapi({ description: 'Unique ignoring case', example: 'Kids' });

const DescriptionSchema = z.string().trim().max(1000, 'must be at most 1000 characters').nullable();

export const SharingTagSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    seriesCount: z.number().int().openapi({ description: 'Series carrying the tag that you can see' }),
    userCount: z.number().int().openapi({ description: 'Users holding a grant of the tag' }),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('SharingTag');
export type SharingTagDto = z.infer<typeof SharingTagSchema>;

export const SharingTagPageSchema = pageEnvelopeSchema(SharingTagSchema, 'SharingTagPage');

export const SharingTagSummarySchema = z
  .object({ id: z.uuid(), name: z.string(), description: z.string().nullable() })
  .openapi('SharingTagSummary');
export const SeriesSharingTagsSchema = z.array(SharingTagSummarySchema);

export const CreateSharingTagBodySchema = acceptTwins(
  z.strictObject({ name: TagNameSchema, description: DescriptionSchema.optional() }),
).openapi('CreateSharingTag');

export const UpdateSharingTagBodySchema = acceptTwins(
  z.strictObject({ name: TagNameSchema.optional(), description: DescriptionSchema.optional() }),
).openapi('UpdateSharingTag');

const TagIdsSchema = z.array(z.uuid('must be a UUID')).max(1000);

export const SetSeriesSharingTagsBodySchema = acceptTwins(
  z.strictObject({
    sharingTagIds: TagIdsSchema.openapi({
      description: "Replaces the series' tags; each must exist (else 400 naming it)",
    }),
  }),
).openapi('SetSeriesSharingTags');

export const ModifySeriesSharingTagBodySchema = acceptTwins(
  z.strictObject({ sharingTagId: z.uuid('must be a UUID') }),
).openapi('ModifySeriesSharingTag');

export const UserSharingTagGrantSchema = z
  .object({
    sharingTagId: z.uuid(),
    sharingTagName: z.string(),
    accessMode: AccessModeSchema,
    createdAt: z.string(),
  })
  .openapi('UserSharingTagGrant');

export const UserSharingTagGrantsSchema = z
  .object({ userId: z.uuid(), grants: z.array(UserSharingTagGrantSchema) })
  .openapi('UserSharingTagGrants');

export const SetUserSharingTagGrantBodySchema = acceptTwins(
  z.strictObject({ sharingTagId: z.uuid('must be a UUID'), accessMode: AccessModeSchema }),
).openapi('SetUserSharingTagGrant');

export const SharingTagIdParamsSchema = z.object({
  id: z.uuid('must be a UUID').openapi({ param: { name: 'id', in: 'path' } }),
  tagId: z.uuid('must be a UUID').openapi({ param: { name: 'tagId', in: 'path' } }),
});
