import { createRoute, z } from '@hono/zod-openapi';
import { AUTH_ERRORS, errorResponses, jsonContent, SECURITY } from '../../lib/openapi-responses';
import { authenticate } from '../../middleware/authenticate';
import { IdParamSchema } from '../../schemas/path-params.schema';
import {
  BrowserSessionSchema,
  IdentityParamsSchema,
  LinkedIdentitySchema,
  OidcCallbackQuerySchema,
  OidcLoginBodySchema,
  OidcLoginResponseSchema,
  OidcProvidersSchema,
  OwnIdentityParamSchema,
  ProviderParamSchema,
  SsoConfigurationSchema,
} from '../../schemas/sso.schema';

const tags = ['Single sign-on'];

export const listProviders = createRoute({
  method: 'get',
  path: '/auth/oidc/providers',
  tags,
  summary: 'The OIDC providers to offer on the login screen (no sign-in needed)',
  responses: { 200: jsonContent(OidcProvidersSchema, 'Configured providers, and which other ways sign in') },
});

export const startLogin = createRoute({
  method: 'post',
  path: '/auth/oidc/{provider}/login',
  tags,
  summary: "Start an OIDC sign-in: where to send the browser (the provider's sign-in page)",
  description:
    'Also sets a short-lived HttpOnly cookie binding the sign-in to this browser: the callback must come ' +
    'back to the same browser within five minutes. The body is optional.',
  request: {
    params: ProviderParamSchema,
    body: { required: false, content: { 'application/json': { schema: OidcLoginBodySchema } } },
  },
  responses: {
    200: jsonContent(OidcLoginResponseSchema, 'The authorization URL'),
    ...errorResponses(400, 404, 503),
  },
});

export const callback = createRoute({
  method: 'get',
  path: '/auth/oidc/{provider}/callback',
  tags,
  summary: 'Where the provider sends the browser back; ends in a session like a password login',
  description:
    'On success: sets the `longbox_session` cookie (HttpOnly, Secure, SameSite=Strict) and answers 303 to ' +
    'the path given at login. No token is ever put in a URL: the web app reads the session with ' +
    '`GET /auth/session`. A refused sign-in answers 401 (400 for a malformed callback) with a plain message — ' +
    'a small HTML page for a browser navigation — and creates or changes no account.',
  request: { params: ProviderParamSchema, query: OidcCallbackQuerySchema },
  responses: {
    303: {
      description: 'Signed in: back to the path given at login',
      headers: { Location: { schema: { type: 'string' } } },
    },
    ...errorResponses(400, 401, 404, 503),
  },
});

export const browserSession = createRoute({
  method: 'get',
  path: '/auth/session',
  tags,
  summary: "This browser's session as a login response (after an SSO callback, or under Cloudflare Access)",
  description:
    'Reads the `longbox_session` cookie, or a valid `Cf-Access-Jwt-Assertion` when Cloudflare Access is ' +
    'configured (a new session for that identity, whose cookie is set too). An Authorization header is not ' +
    'looked at. Same-origin only: the answer holds the bearer token the web app keeps.',
  responses: {
    200: jsonContent(BrowserSessionSchema, 'The session'),
    ...errorResponses(401, 503),
  },
});

const IdentityListSchema = z.array(LinkedIdentitySchema);

export const listOwnIdentities = createRoute({
  method: 'get',
  path: '/user/identities',
  tags,
  security: SECURITY,
  summary: 'Your linked single-sign-on identities',
  middleware: [authenticate()] as const,
  responses: { 200: jsonContent(IdentityListSchema, 'Linked identities'), ...errorResponses(401) },
});

export const unlinkOwnIdentity = createRoute({
  method: 'delete',
  path: '/user/identities/{identityId}',
  tags,
  security: SECURITY,
  summary: 'Unlink one of your identities',
  description:
    'The provider can link it again at your next sign-in through it, by the usual rule (a verified e-mail ' +
    'address of an account without an identity of that provider).',
  middleware: [authenticate()] as const,
  request: { params: OwnIdentityParamSchema },
  responses: { 204: { description: 'Unlinked' }, ...errorResponses(400, 401, 404) },
});

export const listUserIdentities = createRoute({
  method: 'get',
  path: '/users/{id}/identities',
  tags,
  security: SECURITY,
  summary: "A user's linked single-sign-on identities (UsersRead)",
  middleware: [authenticate('UsersRead')] as const,
  request: { params: IdParamSchema },
  responses: { 200: jsonContent(IdentityListSchema, 'Linked identities'), ...errorResponses(400, ...AUTH_ERRORS, 404) },
});

export const unlinkUserIdentity = createRoute({
  method: 'delete',
  path: '/users/{id}/identities/{identityId}',
  tags,
  security: SECURITY,
  summary: "Unlink a user's identity (UsersWrite)",
  middleware: [authenticate('UsersWrite')] as const,
  request: { params: IdentityParamsSchema },
  responses: { 204: { description: 'Unlinked' }, ...errorResponses(400, ...AUTH_ERRORS, 404) },
});

export const ssoConfiguration = createRoute({
  method: 'get',
  path: '/admin/sso',
  tags,
  security: SECURITY,
  summary: 'Which single-sign-on providers this deployment configures; never a secret (SystemAdmin)',
  middleware: [authenticate('SystemAdmin')] as const,
  responses: { 200: jsonContent(SsoConfigurationSchema, 'The configuration'), ...errorResponses(...AUTH_ERRORS) },
});
