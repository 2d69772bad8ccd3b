import { z } from '@hono/zod-openapi';
import { acceptTwins } from '../lib/body';
import { EmailSchema, LoginUserSchema, PasswordSchema, UsernameSchema } from './user.schema';

export const LoginBodySchema = acceptTwins(
  z.strictObject({ username: z.string().min(1).max(254), password: z.string().min(1).max(256) }),
).openapi('LoginRequest');

export const LoginResponseSchema = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int(),
    user: LoginUserSchema,
  })
  .openapi('LoginResponse');
export type LoginResponse = z.infer<typeof LoginResponseSchema>;

export const RegisterBodySchema = acceptTwins(
  z.strictObject({ username: UsernameSchema, email: EmailSchema, password: PasswordSchema }),
).openapi('RegisterRequest');

export const RegisterResponseSchema = z
  .object({
    user: LoginUserSchema,
    verificationRequired: z.boolean(),
    message: z.string(),
  })
  .openapi('RegisterResponse');

export const VerifyEmailBodySchema = acceptTwins(z.strictObject({ token: z.string().min(1).max(512) })).openapi(
  'VerifyEmailRequest',
);

export const ResendVerificationBodySchema = acceptTwins(z.strictObject({ email: EmailSchema })).openapi(
  'ResendVerificationRequest',
);

export const ChangePasswordBodySchema = acceptTwins(
  z.strictObject({ current_password: z.string().min(1).max(256), new_password: PasswordSchema }),
).openapi('ChangePasswordRequest');

export const SetupStatusSchema = z
  .object({ setupRequired: z.boolean(), hasUsers: z.boolean(), registrationEnabled: z.boolean() })
  .openapi('SetupStatus');

export const SetupInitializeBodySchema = RegisterBodySchema.openapi('SetupInitializeRequest');

export const MessageSchema = z.object({ message: z.string() }).openapi('Message');
