/** Single sign-on on the wire: Codex-rs's OIDC shapes (camelCase) and Longbox's own identity records. */
import { z } from '@hono/zod-openapi';
import { RoleSchema } from '../auth/permissions';
import { acceptTwins } from '../lib/body';
import { LoginResponseSchema } from './auth.schema';
import { IdParamSchema } from './path-params.schema';

export const ProviderParamSchema = z.object({
  provider: z
    .string()
    .regex(/^[a-z0-9_]{1,64}$/, 'must be a provider name (lowercase letters, digits, underscore)')
    .openapi({ param: { name: 'provider', in: 'path' }, example: 'authentik' }),
});

export const OidcProviderInfoSchema = z
  .object({
    name: z.string().openapi({ example: 'authentik' }),
    displayName: z.string().openapi({ example: 'Authentik' }),
    loginUrl: z.string().openapi({ example: '/api/v1/auth/oidc/authentik/login' }),
  })
  .openapi('OidcProviderInfo');

export const OidcProvidersSchema = z
  .object({
    enabled: z.boolean().openapi({ description: 'Whether at least one OIDC provider is configured' }),
    providers: z.array(OidcProviderInfoSchema),
    passwordLogin: z
      .boolean()
      .openapi({ description: 'False: passwords sign in admins only (LONGBOX_AUTH__PASSWORD_LOGIN)' }),
    cloudflareAccess: z
      .boolean()
      .openapi({ description: 'Whether Cloudflare Access identities sign in (GET /auth/session)' }),
  })
  .openapi('OidcProviders');

export const OidcLoginBodySchema = acceptTwins(
  z.strictObject({
    redirectUri: z.string().min(1).max(2048).optional().openapi({
      description: 'Where the browser goes after signing in: a path on this server (default `/`)',
      example: '/libraries',
    }),
  }),
).openapi('OidcLoginRequest');

export const OidcLoginResponseSchema = z
  .object({
    redirectUrl: z.url().openapi({ description: "Send the browser here: the provider's sign-in page" }),
  })
  .openapi('OidcLoginResponse');

export const OidcCallbackQuerySchema = z.object({
  code: z.string().min(1).max(4096).optional(),
  state: z.string().min(1).max(512).optional(),
  /** RFC 9207: the issuer of this authorization response, when the provider says. */
  iss: z.string().max(2048).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(1024).optional(),
});

export const BrowserSessionSchema = LoginResponseSchema.pick({ expires_in: true, user: true })
  .extend({
    via: z.enum(['cookie', 'cloudflare_access']).openapi({
      description:
        'What signed this browser in: the session cookie an SSO callback set, or a Cloudflare Access identity',
    }),
  })
  .openapi('BrowserSession');
export type BrowserSession = z.infer<typeof BrowserSessionSchema>;

export const LinkedIdentitySchema = z
  .object({
    id: z.uuid(),
    provider: z.string().openapi({ example: 'authentik' }),
    providerName: z.string().openapi({ example: 'Authentik' }),
    subject: z.string().openapi({ description: "The provider's `sub` for this person" }),
    email: z.string().nullable().openapi({ description: 'The address the provider vouched for at the last sign-in' }),
    groups: z.array(z.string()).openapi({ description: 'The groups claim at the last sign-in' }),
    linkedAt: z.string(),
    lastLoginAt: z.string().nullable(),
  })
  .openapi('LinkedIdentity');
export type LinkedIdentity = z.infer<typeof LinkedIdentitySchema>;

export const OwnIdentityParamSchema = z.object({
  identityId: z.uuid('must be a UUID').openapi({ param: { name: 'identityId', in: 'path' } }),
});

export const IdentityParamsSchema = IdParamSchema.extend(OwnIdentityParamSchema.shape);

export const SsoConfigurationSchema = z
  .object({
    passwordLogin: z.boolean(),
    oidc: z.object({
      providers: z.array(
        z.object({
          name: z.string(),
          displayName: z.string(),
          issuer: z.string(),
          callbackUrl: z.string().openapi({ description: 'The redirect URI to register at the provider' }),
          scopes: z.array(z.string()),
          publicClient: z.boolean().openapi({ description: 'No client secret is configured (PKCE only)' }),
          autoCreateUsers: z.boolean(),
          defaultRole: RoleSchema,
          groupsClaim: z.string(),
          groupMapping: z.array(z.object({ group: z.string(), target: z.string().openapi({ example: 'role:admin' }) })),
        }),
      ),
    }),
    cloudflareAccess: z
      .object({ teamDomain: z.string(), autoCreateUsers: z.boolean(), defaultRole: RoleSchema })
      .nullable(),
  })
  .openapi('SsoConfiguration');
export type SsoConfiguration = z.infer<typeof SsoConfigurationSchema>;
