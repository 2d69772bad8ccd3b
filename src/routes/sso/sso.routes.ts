import { z } from '@hono/zod-openapi';
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
import { contractsFor, empty, json, optionalJsonBody } from '../contract';

const sso = contractsFor('Single sign-on');
const IdentityListSchema = z.array(LinkedIdentitySchema);
const identities = json(IdentityListSchema, 'Linked identities');
const START =
  'Also sets a short-lived HttpOnly cookie binding the sign-in to this browser: the callback must come ' +
  'back to the same browser within five minutes. The body is optional.';
const CALLBACK =
  'On success: sets the `longbox_session` cookie (HttpOnly, SameSite=Strict, Secure over https) and answers 303 to ' +
  'the path given at login. No token is ever put in a URL: the web app reads the session with ' +
  '`GET /auth/session`. A refused sign-in answers 401 (400 for a malformed callback) with a plain message — ' +
  'a small HTML page for a browser navigation — and creates or changes no account.';
const signedIn = {
  description: 'Signed in: back to the path given at login',
  headers: { Location: { schema: { type: 'string' as const } } },
};
const SESSION =
  'Reads the `longbox_session` cookie, or a valid `Cf-Access-Jwt-Assertion` when Cloudflare Access is ' +
  'configured (a new session for that identity, whose cookie is set too). An Authorization header is not ' +
  'looked at. Answers who is signed in and for how long — never the token, which stays in the HttpOnly ' +
  'cookie the web app signs its requests with.';
const RELINK =
  'The provider can link it again at your next sign-in through it, by the usual rule (a verified e-mail ' +
  'address of an account without an identity of that provider).';

// biome-ignore format: a table of endpoints, one per line
export const contracts = {
  listProviders: sso.get('/auth/oidc/providers', 'public', { summary: 'The OIDC providers to offer on the login screen (no sign-in needed)', 200: json(OidcProvidersSchema, 'Configured providers, and which other ways sign in') }),
  startLogin: sso.post('/auth/oidc/{provider}/login', 'public', { summary: "Start an OIDC sign-in: where to send the browser (the provider's sign-in page)", description: START, params: ProviderParamSchema, body: optionalJsonBody(OidcLoginBodySchema), 200: json(OidcLoginResponseSchema, 'The authorization URL'), errors: [400, 404, 503] }),
  callback: sso.get('/auth/oidc/{provider}/callback', 'public', { summary: 'Where the provider sends the browser back; ends in a session like a password login', description: CALLBACK, params: ProviderParamSchema, query: OidcCallbackQuerySchema, 303: signedIn, errors: [400, 401, 404, 503] }),
  browserSession: sso.get('/auth/session', 'public', { summary: "This browser's session: its user and lifetime (after an SSO callback, or under Cloudflare Access)", description: SESSION, 200: json(BrowserSessionSchema, 'The session'), errors: [401, 503] }),
  listOwnIdentities: sso.get('/user/identities', 'signed-in', { summary: 'Your linked single-sign-on identities', 200: identities }),
  unlinkOwnIdentity: sso.delete('/user/identities/{identityId}', 'signed-in', { summary: 'Unlink one of your identities', description: RELINK, params: OwnIdentityParamSchema, 204: empty('Unlinked'), errors: [400, 404] }),
  listUserIdentities: sso.get('/users/{id}/identities', 'UsersRead', { summary: "A user's linked single-sign-on identities (UsersRead)", params: IdParamSchema, 200: identities, errors: [400, 404] }),
  unlinkUserIdentity: sso.delete('/users/{id}/identities/{identityId}', 'UsersWrite', { summary: "Unlink a user's identity (UsersWrite)", params: IdentityParamsSchema, 204: empty('Unlinked'), errors: [400, 404] }),
  ssoConfiguration: sso.get('/admin/sso', 'SystemAdmin', { summary: 'Which single-sign-on providers this deployment configures; never a secret (SystemAdmin)', 200: json(SsoConfigurationSchema, 'The configuration') }),
};
