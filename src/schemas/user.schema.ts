import { z } from '@hono/zod-openapi';
import { acceptTwins } from '../lib/body';
import { PermissionSchema, RoleSchema } from '../auth/permissions';

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
  }),
).openapi('UpdateUser');
