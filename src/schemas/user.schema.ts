import { z } from '@hono/zod-openapi';
import { acceptTwins } from '../lib/body';
import { PermissionSchema, RoleSchema } from '../auth/permissions';
import { AccessModeSchema } from './sharing-tag.schema';

const COMMON_PASSWORDS = new Set([
  'password',
  'password1',
  'password123',
  '12345678',
  '123456789',
  '1234567890',
  'qwertyuiop',
  'iloveyou',
  'sunshine',
  'princess',
  'football',
  'baseball',
  'welcome1',
  'admin123',
  'letmein1',
  'trustno1',
  'longbox1',
]);

export const UsernameSchema = z
  .string()
  .trim()
  .min(3, 'must be at least 3 characters')
  .max(64, 'must be at most 64 characters')
  .regex(/^[A-Za-z0-9._-]+$/, 'may contain only letters, digits, dot, dash and underscore')
  .refine((v) => v.toLowerCase() !== 'api', 'is reserved for API-key Basic authentication')
  .openapi({ example: 'reader1' });

export const EmailSchema = z
  .email('must be a valid e-mail address')
  .max(254)
  .openapi({ example: 'reader@example.com' });

/** At least 8 characters, not a well-known password, not one repeated character. */
export const PasswordSchema = z
  .string()
  .min(8, 'must be at least 8 characters')
  .max(256, 'must be at most 256 characters')
  .refine((v) => !COMMON_PASSWORDS.has(v.toLowerCase()), 'is too common')
  .refine((v) => new Set(v).size >= 4, 'must use at least 4 different characters')
  .openapi({ example: 'correct horse battery' });

/** The user as returned at login (API.md §2 User). */
export const LoginUserSchema = z
  .object({ id: z.uuid(), username: z.string(), email: z.string(), role: RoleSchema })
  .openapi('LoginUser');

/** Komga's age restriction: ALLOW_ONLY shows series rated at most `age`, EXCLUDE hides those rated `age` or more. */
export const AgeRestrictionSchema = z
  .object({
    age: z.number().int('must be a whole number').min(0, 'must be at least 0').max(255, 'must be at most 255'),
    restriction: z.enum(['ALLOW_ONLY', 'EXCLUDE']),
  })
  .openapi('AgeRestriction');

/** What a user may see, as answers show it (docs/DECISIONS.md §Organise and share). */
const UserAccessFields = {
  sharedAllLibraries: z.boolean().openapi({ description: 'The user sees every library (admins always do)' }),
  sharedLibraryIds: z
    .array(z.string())
    .openapi({ description: 'The libraries shared with the user when sharedAllLibraries is false' }),
  ageRestriction: AgeRestrictionSchema.nullable(),
  sharingTags: z
    .array(z.object({ sharingTagId: z.string(), name: z.string(), accessMode: AccessModeSchema }))
    .openapi({ description: 'The sharing tags granted to the user, allowed or denied' }),
};

/** What a user may see, as a create or update sets it; omitted parts stay as they are (create: no restriction). */
const AccessInputFields = {
  sharedAllLibraries: z.boolean().optional().openapi({
    description: 'true: every library (sharedLibraryIds ignored); false: only sharedLibraryIds (none when omitted)',
  }),
  sharedLibraryIds: z.array(z.uuid('must be a UUID')).max(1000).optional().openapi({
    description:
      'Libraries shared with the user, each one you see (else 400 naming it); given alone, sharedAllLibraries becomes false',
  }),
  ageRestriction: AgeRestrictionSchema.nullable().optional().openapi({ description: 'null removes it' }),
  sharingTags: z
    .array(z.strictObject({ sharingTagId: z.uuid('must be a UUID'), accessMode: AccessModeSchema }))
    .max(1000)
    .optional()
    .openapi({ description: "Replaces the user's tag grants; each tag must exist (else 400 naming it)" }),
};

/** The full user record (admin views and /auth/me). */
export const UserSchema = z
  .object({
    id: z.uuid(),
    username: z.string(),
    email: z.string(),
    role: RoleSchema,
    permissions: z.array(PermissionSchema).openapi({ description: 'Effective permissions: role ∪ custom' }),
    customPermissions: z.array(PermissionSchema),
    isActive: z.boolean(),
    emailVerified: z.boolean(),
    lastLoginAt: z.string().nullable(),
    createdAt: z.string(),
    updatedAt: z.string(),
    ...UserAccessFields,
  })
  .openapi('User');
export type UserDto = z.infer<typeof UserSchema>;

export const CreateUserBodySchema = acceptTwins(
  z.strictObject({
    username: UsernameSchema,
    email: EmailSchema,
    password: PasswordSchema,
    role: RoleSchema.default('reader'),
    customPermissions: z.array(PermissionSchema).default([]),
    isActive: z.boolean().default(true),
    ...AccessInputFields,
  }),
).openapi('CreateUser');

export const UpdateUserBodySchema = acceptTwins(
  z.strictObject({
    username: UsernameSchema.optional(),
    email: EmailSchema.optional(),
    password: PasswordSchema.optional(),
    role: RoleSchema.optional(),
    customPermissions: z.array(PermissionSchema).optional(),
    isActive: z.boolean().optional(),
    ...AccessInputFields,
  }),
).openapi('UpdateUser');
