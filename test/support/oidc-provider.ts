/**
 * A real OpenID Provider for the single-sign-on tests: panva's `oidc-provider` (the certified Node
 * implementation) on a loopback port of this test process. Its issuer is `http://localhost:<port>`, a
 * different site from Longbox's `http://127.0.0.1:<port>`, so the browser treats the sign-in as the
 * cross-site round trip it is in production (SameSite cookies included).
 *
 * The provider starts at once (Longbox needs its issuer among its variables) and is given its client when
 * Longbox's address is known (`registerClient`). Its sign-in page is the provider's development login form
 * (any password); which person signs in is the login name typed there, one of `accounts`.
 *
 * `tamperIdTokens` makes the token endpoint hand out ID tokens with changed claims, still signed with the
 * provider's own key: a provider issuing for another audience, expired tokens, another issuer. The tests
 * use it for the cases a well-behaved provider never produces on its own.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';

export interface TestAccount {
  email: string;
  emailVerified: boolean;
  groups?: string[];
  name?: string;
}

export interface TestIdp {
  /** `http://localhost:<port>` */
  issuer: string;
  clientId: string;
  clientSecret: string;
  registerClient(redirectUris: string[]): Promise<void>;
  /** Changes the claims of the ID tokens issued from now on; null issues them untouched. */
  tamperIdTokens(change: ((claims: JWTPayload) => JWTPayload) | null): void;
  /** Every ID token and access token the token endpoint returned, to check Longbox never logs one. */
  issuedTokens: string[];
  /** How many token requests the provider answered, refused ones included. */
  tokenRequests(): number;
  close(): Promise<void>;
}

const SCOPES = ['openid', 'email', 'profile', 'groups'];

export async function startTestIdp(accounts: Record<string, TestAccount>): Promise<TestIdp> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'test-idp-key', alg: 'RS256', use: 'sig' };
  const clientId = 'longbox';
  const clientSecret = 'test-client-secret-that-must-never-be-logged';
  let provider: Provider | undefined;
  let tamper: ((claims: JWTPayload) => JWTPayload) | null = null;
  let tokenRequests = 0;
  const issuedTokens: string[] = [];

  const server: Server = createServer((req, res) => {
    if (provider) return provider.callback()(req, res);
    res.statusCode = 503;
    res.end('no client registered yet');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  // `localhost` may resolve to ::1 first elsewhere: answer there too when the machine has IPv6.
  const ipv6 = createServer((req, res) => server.emit('request', req, res));
  await new Promise<void>((resolve) => {
    ipv6.once('error', () => resolve());
    ipv6.listen(port, '::1', resolve);
  });
  const issuer = `http://localhost:${port}`;

  async function registerClient(redirectUris: string[]): Promise<void> {
    const configuration: Configuration = {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: redirectUris,
          grant_types: ['authorization_code'],
          response_types: ['code'],
        },
      ],
      jwks: { keys: [jwk] },
      scopes: SCOPES,
      claims: {
        openid: ['sub'],
        email: ['email', 'email_verified'],
        profile: ['name', 'preferred_username'],
        groups: ['groups'],
      },
      features: { devInteractions: { enabled: true } },
      cookies: { keys: ['longbox-test-idp-cookie-key'] },
      ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 600, IdToken: 600, Interaction: 600, Session: 600 },
      async findAccount(_ctx, id) {
        const account = accounts[id];
        if (!account) return undefined;
        return {
          accountId: id,
          claims: async () => ({
            sub: id,
            email: account.email,
            email_verified: account.emailVerified,
            name: account.name ?? id,
            preferred_username: id,
            groups: account.groups ?? [],
          }),
        };
      },
      // A first-party client: no consent screen, every requested scope is granted.
      async loadExistingGrant(ctx) {
        const grant = new ctx.oidc.provider.Grant({
          clientId: ctx.oidc.client!.clientId,
          accountId: ctx.oidc.session!.accountId,
        });
        grant.addOIDCScope(SCOPES.join(' '));
        await grant.save();
        return grant;
      },
    };
    provider = new Provider(issuer, configuration);
    provider.use(async (ctx, next) => {
      await next();
      if (ctx.path !== '/token') return;
      tokenRequests++;
      const body = ctx.body as { id_token?: string; access_token?: string } | undefined;
      if (ctx.status !== 200 || !body?.id_token) return;
      if (tamper) {
        const { kid, alg } = decodeProtectedHeader(body.id_token);
        body.id_token = await new SignJWT(tamper(decodeJwt(body.id_token)))
          .setProtectedHeader({ alg: alg ?? 'RS256', kid })
          .sign(privateKey);
      }
      issuedTokens.push(body.id_token);
      if (body.access_token) issuedTokens.push(body.access_token);
    });
  }

  return {
    issuer,
    clientId,
    clientSecret,
    registerClient,
    tamperIdTokens(change) {
      tamper = change;
    },
    issuedTokens,
    tokenRequests: () => tokenRequests,
    async close() {
      const closed = Promise.all([
        new Promise((resolve) => server.close(resolve)),
        new Promise((resolve) => (ipv6.listening ? ipv6.close(resolve) : resolve(undefined))),
      ]);
      server.closeAllConnections();
      ipv6.closeAllConnections();
      await closed;
    },
  };
}

/** The variables that configure Longbox with this provider as `<name>` (README "Single sign-on"). */
export function longboxVars(idp: TestIdp, name: string, extra: Record<string, string> = {}): Record<string, string> {
  const prefix = `LONGBOX_AUTH__OIDC__${name.toUpperCase()}__`;
  return {
    [`${prefix}ISSUER`]: idp.issuer,
    [`${prefix}CLIENT_ID`]: idp.clientId,
    [`${prefix}CLIENT_SECRET`]: idp.clientSecret,
    [`${prefix}SCOPES`]: 'openid email profile groups',
    ...Object.fromEntries(Object.entries(extra).map(([field, value]) => [`${prefix}${field}`, value])),
  };
}
