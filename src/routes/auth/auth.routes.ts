import { createRoute, z } from '@hono/zod-openapi';
import { authenticate } from '../../middleware/authenticate';
import { errorResponses, jsonBody, jsonContent, SECURITY } from '../../lib/openapi-responses';
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
import { PermissionSchema } from '../../auth/permissions';
import { UserSchema } from '../../schemas/user.schema';

const tags = ['Authentication'];

export const login = createRoute({
  method: 'post',
  path: '/auth/login',
  tags,
  summary: 'Log in with username and password',
  description:
    'Also sets the `longbox_session` cookie (HttpOnly, Secure, SameSite=Strict) with the same token, which ' +
    'GET and HEAD requests without credentials of their own may use: page images, thumbnails, files and ' +
    'event streams in a browser (DECISIONS.md §Web app). Logout clears it.',
  request: { body: jsonBody(LoginBodySchema) },
  responses: { 200: jsonContent(LoginResponseSchema, 'Session token'), ...errorResponses(400, 401, 429) },
});

export const register = createRoute({
  method: 'post',
  path: '/auth/register',
  tags,
  summary: 'Register a user (when registration is enabled)',
  request: { body: jsonBody(RegisterBodySchema) },
  responses: { 201: jsonContent(RegisterResponseSchema, 'Account created'), ...errorResponses(400, 403, 409) },
});

export const logout = createRoute({
  method: 'post',
  path: '/auth/logout',
  tags,
  summary: 'Log out: the session token dies at once',
  middleware: [authenticate()] as const,
  security: [{ bearerAuth: [] }],
  responses: { 204: { description: 'Logged out' }, ...errorResponses(401) },
});

export const changePassword = createRoute({
  method: 'put',
  path: '/auth/password',
  tags,
  summary: 'Change your own password (the current one is asked again)',
  description:
    'Your other sessions end and cached Basic credentials retire; the session (or key) making the change ' +
    'keeps working. A wrong current password is a 403 (the session stays valid).',
  middleware: [authenticate()] as const,
  security: SECURITY,
  request: { body: jsonBody(ChangePasswordBodySchema) },
  responses: { 200: jsonContent(MessageSchema, 'Password changed'), ...errorResponses(400, 401, 403) },
});

export const MeSchema = UserSchema.extend({
  authMethod: z.enum(['session', 'api_key', 'basic', 'cloudflare_access']),
  effectivePermissions: z.array(PermissionSchema).openapi({ description: 'What this request may do' }),
  apiKey: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  hasPassword: z.boolean().openapi({
    description:
      'Whether the account has a password; false for one single sign-on created, which signs in through its provider until an admin sets one',
  }),
}).openapi('Me');

export const me = createRoute({
  method: 'get',
  path: '/auth/me',
  tags,
  summary: 'The current user',
  middleware: [authenticate()] as const,
  security: [{ bearerAuth: [] }, { apiKeyHeader: [] }, { basicAuth: [] }],
  responses: { 200: jsonContent(MeSchema, 'Current user'), ...errorResponses(401) },
});

export const verifyEmail = createRoute({
  method: 'post',
  path: '/auth/verify-email',
  tags,
  summary: 'Verify an e-mail token and activate the account',
  request: { body: jsonBody(VerifyEmailBodySchema) },
  responses: { 200: jsonContent(MessageSchema, 'Verified'), ...errorResponses(400) },
});

export const resendVerification = createRoute({
  method: 'post',
  path: '/auth/resend-verification',
  tags,
  summary: 'Send a new verification e-mail',
  request: { body: jsonBody(ResendVerificationBodySchema) },
  responses: {
    202: jsonContent(MessageSchema, 'Sent if the address belongs to an unverified account'),
    ...errorResponses(400),
  },
});
