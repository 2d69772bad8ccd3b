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

const auth = contractsFor('Authentication');
const LOGIN =
  'Also sets the `longbox_session` cookie (HttpOnly, SameSite=Strict, Secure over https) with the same ' +
  'token: the web app signs every request with it and keeps no token of its own. It signs in requests ' +
  'without credentials of their own; a change (POST, PUT, PATCH, DELETE) made with it must come from this ' +
  "server's own pages (`Sec-Fetch-Site: same-origin`, else a matching `Origin`), or it is a 403 " +
  '(DECISIONS.md §Security). Logout clears it. API clients use `access_token`.';
const CHANGE_PASSWORD =
  'Your other sessions end and cached Basic credentials retire; the session (or key) making the change ' +
  'keeps working. A wrong current password is a 403 (the session stays valid).';

export const MeSchema = UserSchema.extend({
  authMethod: z.enum(['session', 'api_key', 'basic', 'cloudflare_access']),
  effectivePermissions: z.array(PermissionSchema).openapi({ description: 'What this request may do' }),
  apiKey: z.object({ id: z.uuid(), name: z.string() }).nullable(),
  hasPassword: z.boolean().openapi({
    description:
      'Whether the account has a password; false for one single sign-on created, which signs in through its provider until an admin sets one',
  }),
}).openapi('Me');

// biome-ignore format: a table of endpoints, one per line
export const contracts = {
  login: auth.post('/auth/login', 'public', { summary: 'Log in with username and password', description: LOGIN, body: LoginBodySchema, 200: json(LoginResponseSchema, 'Session token'), errors: [400, 401, 429] }),
  register: auth.post('/auth/register', 'public', { summary: 'Register a user (when registration is enabled)', body: RegisterBodySchema, 201: json(RegisterResponseSchema, 'Account created'), errors: [400, 403, 409] }),
  logout: auth.post('/auth/logout', 'signed-in', { summary: 'Log out: the session token dies at once', security: [{ bearerAuth: [] }], 204: empty('Logged out') }),
  changePassword: auth.put('/auth/password', 'signed-in', { summary: 'Change your own password (the current one is asked again)', description: CHANGE_PASSWORD, body: ChangePasswordBodySchema, 200: json(MessageSchema, 'Password changed'), errors: [400, 403] }),
  me: auth.get('/auth/me', 'signed-in', { summary: 'The current user', 200: json(MeSchema, 'Current user') }),
  verifyEmail: auth.post('/auth/verify-email', 'public', { summary: 'Verify an e-mail token and activate the account', body: VerifyEmailBodySchema, 200: json(MessageSchema, 'Verified'), errors: [400] }),
  resendVerification: auth.post('/auth/resend-verification', 'public', { summary: 'Send a new verification e-mail', body: ResendVerificationBodySchema, 202: json(MessageSchema, 'Sent if the address belongs to an unverified account'), errors: [400] }),
};
