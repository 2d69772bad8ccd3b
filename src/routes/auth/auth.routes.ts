import { z } from '@hono/zod-openapi';
import { PermissionSchema } from '../../auth/permissions';
import {
  ChangePasswordBodySchema,
  LoginBodySchema,
  LoginResponseSchema,
  MessageSchema,
  RegisterBodySchema,
  RegisterResponseSchema,
  ResendVerificationBodySchema,
  VerifyEmailBodySchema,
} from '../../schemas/auth.schema';
import { UserSchema } from '../../schemas/user.schema';
import { contractsFor, empty, json } from '../contract';

const route = contractsFor('Authentication');

export const login = route.post('/auth/login', 'public', {
  summary: 'Log in with username and password',
  description:
    'Also sets the `longbox_session` cookie (HttpOnly, Secure, SameSite=Strict) with the same token, which ' +
    'GET and HEAD requests without credentials of their own may use: page images, thumbnails, files and ' +
    'event streams in a browser (DECISIONS.md §Web app). Logout clears it.',
  body: LoginBodySchema,
  responses: { 200: json(LoginResponseSchema, 'Session token') },
  errors: [400, 401, 429],
});
export const register = route.post('/auth/register', 'public', {
  summary: 'Register a user (when registration is enabled)',
  body: RegisterBodySchema,
  responses: { 201: json(RegisterResponseSchema, 'Account created') },
  errors: [400, 403, 409],
});
export const logout = route.post('/auth/logout', 'signed-in', {
  summary: 'Log out: the session token dies at once',
  security: [{ bearerAuth: [] }],
  responses: { 204: empty('Logged out') },
});
export const changePassword = route.put('/auth/password', 'signed-in', {
  summary: 'Change your own password (the current one is asked again)',
  description:
    'Your other sessions end and cached Basic credentials retire; the session (or key) making the change ' +
    'keeps working. A wrong current password is a 403 (the session stays valid).',
  body: ChangePasswordBodySchema,
  responses: { 200: json(MessageSchema, 'Password changed') },
  errors: [400, 403],
});

export const MeSchema = UserSchema.extend({
  authMethod: z.enum(['session', 'api_key', 'basic']),
  effectivePermissions: z.array(PermissionSchema).openapi({ description: 'What this request may do' }),
  apiKey: z.object({ id: z.uuid(), name: z.string() }).nullable(),
}).openapi('Me');

export const me = route.get('/auth/me', 'signed-in', {
  summary: 'The current user',
  responses: { 200: json(MeSchema, 'Current user') },
});
export const verifyEmail = route.post('/auth/verify-email', 'public', {
  summary: 'Verify an e-mail token and activate the account',
  body: VerifyEmailBodySchema,
  responses: { 200: json(MessageSchema, 'Verified') },
  errors: [400],
});
export const resendVerification = route.post('/auth/resend-verification', 'public', {
  summary: 'Send a new verification e-mail',
  body: ResendVerificationBodySchema,
  responses: { 202: json(MessageSchema, 'Sent if the address belongs to an unverified account') },
  errors: [400],
});
