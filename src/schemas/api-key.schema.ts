/** API keys on the wire (API.md §2 API key, §4 API keys): snake_case fields, the secret only at creation. */
import { z } from '@hono/zod-openapi';
import { PermissionSchema } from '../auth/permissions';
import { acceptTwins } from '../lib/body';

const NameSchema = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(100, 'must be at most 100 characters')
  .openapi({ description: 'Names the device in per-device reading statistics', example: 'Kavita on my tablet' });

const PermissionsSchema = z
  .array(PermissionSchema)
  .min(1, 'must name at least one permission')
  .openapi({ description: 'Each must be held by the caller' });

const ExpiresAtSchema = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).nullable().openapi({
  description: 'Must lie in the future; null or omitted: never expires',
  example: '2027-01-01T00:00:00.000Z',
});

const LibraryIdsSchema = z
  .array(z.uuid())
  .min(1, 'must name at least one library')
  .max(1000)
  .openapi({
    description:
      'Narrows the key to these libraries, each one you can see (else 400 naming it). Fixed at creation: ' +
      'the key never reaches more, and loses a library when you do. Omitted: every library you see ' +
      '(a narrowed key creating a key passes its own libraries on)',
  });

/** A key's libraries in answers: null when it reaches every library its owner sees. */
const LibraryIdsAnswerSchema = z.array(z.string()).nullable().openapi({
  description: 'The libraries the key is narrowed to; null: every library its owner sees',
});

export const CreateApiKeyBodySchema = acceptTwins(
  z.strictObject({
    name: NameSchema,
    permissions: PermissionsSchema.optional().openapi({
      description: "Omitted: the creator's full effective permissions at creation time",
    }),
    expires_at: ExpiresAtSchema.optional(),
    library_ids: LibraryIdsSchema.optional(),
  }),
).openapi('CreateApiKey');

export const UpdateApiKeyBodySchema = acceptTwins(
  z.strictObject({
    name: NameSchema.optional(),
    permissions: PermissionsSchema.optional(),
    expires_at: ExpiresAtSchema.optional(),
  }),
).openapi('UpdateApiKey');

export const ApiKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    key_prefix: z.string().openapi({
      example: 'lbx_a1b2c3d4',
      description:
        'lbx_<prefix>; a key imported from Komga shows komga_ and the start of its hash (it works on /komga only)',
    }),
    permissions: z.array(PermissionSchema),
    library_ids: LibraryIdsAnswerSchema,
    last_used_at: z.string().nullable(),
    expires_at: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi('ApiKey');
export type ApiKeyDto = z.infer<typeof ApiKeySchema>;

export const CreatedApiKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    key: z.string().openapi({ description: 'The full key; shown only in this response', example: 'lbx_a1b2c3d4_…' }),
    key_prefix: z.string(),
    permissions: z.array(PermissionSchema),
    library_ids: LibraryIdsAnswerSchema,
    expires_at: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi('CreatedApiKey');
export type CreatedApiKeyDto = z.infer<typeof CreatedApiKeySchema>;
