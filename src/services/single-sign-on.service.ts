/**
 * Single sign-on (README "Single sign-on", docs/DECISIONS.md §Single sign-on): the OIDC authorization-code flow
 * from `POST /auth/oidc/{provider}/login` to its callback, Cloudflare Access identities, and the browser
 * session both end in — the same session a password login creates (AuthenticationService.signIn), handed to
 * the browser as the HttpOnly cookie and never in a URL. Which account an identity is: SsoAccountsService.
 */
import { decodeJwt } from 'jose';
import { looksLikeApiKey } from '../auth/api-key-format';
import { ACCESS_ASSERTION_HEADER, CLOUDFLARE_ACCESS_PROVIDER, verifyAccessAssertion } from '../auth/cloudflare-access';
import { emailLocalPart, type ExternalIdentity } from '../auth/external-identity';
import { discover } from '../auth/oidc/discovery';
import { authorizationUrl, identityFromCode } from '../auth/oidc/oidc-client';
import { randomToken } from '../auth/oidc/pkce';
import type { Role } from '../auth/permissions';
import { describeTarget } from '../auth/group-mapping';
import type { OidcProviderConfig, SingleSignOnConfig } from '../auth/single-sign-on-config';
import { sha256Hex, timingSafeEqual, utf8 } from '../lib/encoding';
import { badRequest, notFound, unauthorized } from '../lib/errors';
import { nowIso } from '../lib/ids';
import type { OidcIdentityRecord } from '../repositories/oidc-identities.repository';
import type { OidcPendingLoginsRepository } from '../repositories/oidc-pending-logins.repository';
import type { UserRecord } from '../repositories/users.repository';
import type { LoginResponse } from '../schemas/auth.schema';
import type { BrowserSession, LinkedIdentity, SsoConfiguration } from '../schemas/sso.schema';
import { toLoginUser } from '../mappers/user.mapper';
import type { SignInSource } from './authentication-activity.service';
import type { AuthenticationService, ClientInfo } from './authentication.service';
import type { AccountRules, SsoAccountsService } from './sso-accounts.service';

/** A sign-in must come back from the provider within five minutes (Codex-rs's limit). */
export const PENDING_LOGIN_SECONDS = 5 * 60;
const OIDC_PATH = '/api/v1/auth/oidc';
const ACCESS_NAME = 'Cloudflare Access';
/**
 * Reader apps keep API keys and Basic (DECISIONS.md §Organise and share): an Access assertion never signs
 * in on their paths, which an Access bypass rule leaves unguarded anyway.
 */
const READER_APP_PREFIXES = ['/opds', '/komga', '/koreader', '/kobo'];
/** Like the session cookie, an Access identity signs in read requests only; writes carry the bearer token. */
const READ_METHODS = new Set(['GET', 'HEAD']);

/** Passwords sign in everyone, or only admins when password login is off (docs/DECISIONS.md §Password login). */
export function passwordSignInAllowed(config: SingleSignOnConfig, role: Role): boolean {
  return config.passwordLogin || role === 'admin';
}

export interface SingleSignOnDeps {
  config: SingleSignOnConfig;
  pending: OidcPendingLoginsRepository;
  accounts: SsoAccountsService;
  authentication: AuthenticationService;
}

export interface CallbackQuery {
  code?: string;
  state?: string;
  iss?: string;
  error?: string;
  error_description?: string;
}

export class SingleSignOnService {
  constructor(private readonly deps: SingleSignOnDeps) {}

  /** What the login screen offers (Codex-rs's `GET /auth/oidc/providers`, plus Longbox's two flags). */
  providers() {
    const { config } = this.deps;
    return {
      enabled: config.providers.length > 0,
      providers: config.providers.map((p) => ({
        name: p.name,
        displayName: p.displayName,
        loginUrl: `${OIDC_PATH}/${p.name}/login`,
      })),
      passwordLogin: config.passwordLogin,
      cloudflareAccess: config.cloudflareAccess !== null,
    };
  }

  /** The admin's view: what is configured, with the callback URL to register; never a secret. */
  configuration(requestOrigin: string): SsoConfiguration {
    const { config } = this.deps;
    return {
      passwordLogin: config.passwordLogin,
      oidc: {
        providers: config.providers.map((p) => ({
          name: p.name,
          displayName: p.displayName,
          issuer: p.issuer,
          callbackUrl: this.callbackUrl(p, requestOrigin),
          scopes: p.scopes,
          publicClient: p.clientSecret === undefined,
          autoCreateUsers: p.autoCreateUsers,
          defaultRole: p.defaultRole,
          groupsClaim: p.groups.claim,
          groupMapping: p.groups.rules.map((rule) => ({ group: rule.group, target: describeTarget(rule.target) })),
        })),
      },
      cloudflareAccess: config.cloudflareAccess && {
        teamDomain: config.cloudflareAccess.teamDomain,
        autoCreateUsers: config.cloudflareAccess.autoCreateUsers,
        defaultRole: config.cloudflareAccess.defaultRole,
      },
    };
  }

  /**
   * Starts a sign-in: a pending row (state, nonce, PKCE verifier, where to return) and the provider's
   * authorization URL. `browserBinding` goes into a cookie of this browser; the callback must bring it back,
   * so a callback URL carried to another browser (login CSRF) signs nobody in.
   */
  async startLogin(
    name: string,
    redirectUri: string | undefined,
    requestOrigin: string,
  ): Promise<{ redirectUrl: string; browserBinding: string }> {
    const provider = this.provider(name);
    const returnTo = this.returnPath(redirectUri, requestOrigin);
    const metadata = await discover(provider.issuer);
    const request = {
      state: randomToken(),
      nonce: randomToken(),
      codeVerifier: randomToken(),
      redirectUri: this.callbackUrl(provider, requestOrigin),
    };
    const browserBinding = randomToken();
    const now = new Date();
    await this.deps.pending.create(
      {
        ...request,
        provider: provider.name,
        browserBindingHash: await sha256Hex(browserBinding),
        returnTo,
        expiresAt: new Date(now.getTime() + PENDING_LOGIN_SECONDS * 1000).toISOString(),
        createdAt: now.toISOString(),
      },
      now.toISOString(),
    );
    return { redirectUrl: await authorizationUrl(metadata, provider, request), browserBinding };
  }

  /**
   * The provider's redirect back: every check passes before an account is looked at (state known, unused,
   * of this provider, in time, from this browser; the provider's issuer; the code exchange; the ID token's
   * signature, issuer, audience, expiry and nonce), then the account rules, then a session.
   */
  async completeLogin(
    name: string,
    query: CallbackQuery,
    browserBinding: string | undefined,
    client: ClientInfo,
  ): Promise<{ session: LoginResponse; returnTo: string }> {
    const provider = this.provider(name);
    if (query.error) {
      if (query.state) await this.deps.pending.take(query.state);
      throw unauthorized(`${provider.displayName} did not sign you in: ${query.error_description || query.error}`);
    }
    if (!query.code || !query.state) {
      const missing = (['code', 'state'] as const).filter((field) => !query[field]);
      throw badRequest(
        `The sign-in callback needs ${missing.join(' and ')}`,
        missing.map((path) => ({ path, message: 'is required' })),
      );
    }
    const pending = await this.deps.pending.take(query.state);
    if (!pending || pending.provider !== provider.name) {
      throw unauthorized('This sign-in is unknown or was already used: start again');
    }
    if (pending.expiresAt <= nowIso()) throw unauthorized('This sign-in took more than five minutes: start again');
    const binding = browserBinding ? await sha256Hex(browserBinding) : '';
    if (!timingSafeEqual(utf8(binding), utf8(pending.browserBindingHash))) {
      throw unauthorized('This sign-in was started in another browser: start again from this one');
    }
    const metadata = await discover(provider.issuer);
    // RFC 9207: a provider that names the response's issuer must name the configured one (mix-up attacks).
    if (query.iss !== undefined && query.iss !== metadata.issuer) {
      throw unauthorized('The sign-in response comes from another issuer than the configured provider');
    }
    const identity = await identityFromCode(
      metadata,
      provider,
      { code: query.code, codeVerifier: pending.codeVerifier, redirectUri: pending.redirectUri, nonce: pending.nonce },
      this.deps.config.keySetCooldownSeconds,
    );
    const user = await this.deps.accounts.accountFor(identity, providerRules(provider));
    const session = await this.newSession(user, client, `OAuth2:${provider.displayName}`);
    return { session, returnTo: pending.returnTo };
  }

  /**
   * The signed-in user of a request carrying only a Cloudflare Access assertion, or null: Access not
   * configured, no assertion, a write or a reader-app path (which keep their own credentials), or a
   * service token (no person behind it). A bad assertion is a 401.
   */
  async accessPrincipal(request: { method: string; path: string; header(name: string): string | undefined }) {
    const assertion = request.header(ACCESS_ASSERTION_HEADER);
    if (!this.deps.config.cloudflareAccess || !assertion) return null;
    if (!READ_METHODS.has(request.method) || isReaderAppPath(request.path)) return null;
    const user = await this.accessUser(assertion);
    if (!user) return null;
    return this.deps.authentication.principalOf(user, 'cloudflare_access');
  }

  /**
   * This browser's session (`GET /auth/session`): the web app asks after an SSO callback (which set only
   * the HttpOnly cookie) and under Cloudflare Access (a new session for the Access identity). `fresh` says
   * a new session was made, whose cookie the route sets; the token itself never goes to the page.
   */
  async browserSession(input: {
    assertion: string | undefined;
    cookieToken: string | undefined;
    client: ClientInfo;
  }): Promise<{ session: LoginResponse; via: BrowserSession['via']; fresh: boolean }> {
    if (this.deps.config.cloudflareAccess && input.assertion) {
      const user = await this.accessUser(input.assertion);
      if (user) {
        const current = input.cookieToken ? await this.cookieSession(input.cookieToken).catch(() => null) : null;
        if (current?.user.id === user.id) return { session: current, via: 'cloudflare_access', fresh: false };
        return {
          session: await this.newSession(user, input.client, 'CloudflareAccess'),
          via: 'cloudflare_access',
          fresh: true,
        };
      }
    }
    if (input.cookieToken) return { session: await this.cookieSession(input.cookieToken), via: 'cookie', fresh: false };
    throw unauthorized('This browser is not signed in');
  }

  identityView(record: OidcIdentityRecord): LinkedIdentity {
    const name =
      record.provider === CLOUDFLARE_ACCESS_PROVIDER
        ? ACCESS_NAME
        : (this.deps.config.providers.find((p) => p.name === record.provider)?.displayName ?? record.provider);
    return {
      id: record.id,
      provider: record.provider,
      providerName: name,
      subject: record.subject,
      email: record.email,
      groups: record.groups,
      linkedAt: record.createdAt,
      lastLoginAt: record.lastLoginAt,
    };
  }

  private async accessUser(assertion: string): Promise<UserRecord | null> {
    const access = this.deps.config.cloudflareAccess;
    if (!access) return null;
    const verified = await verifyAccessAssertion(assertion, access, this.deps.config.keySetCooldownSeconds);
    if (verified.kind === 'service') return null;
    const identity: ExternalIdentity = {
      provider: CLOUDFLARE_ACCESS_PROVIDER,
      providerName: ACCESS_NAME,
      subject: verified.subject,
      email: verified.email?.toLowerCase() ?? null,
      // Access signs its tokens only after the identity provider it uses has authenticated that address.
      emailVerified: verified.email !== null,
      groups: [],
      usernameHints: [emailLocalPart(verified.email)].filter((hint): hint is string => hint !== undefined),
    };
    return this.deps.accounts.accountFor(identity, {
      autoCreateUsers: access.autoCreateUsers,
      defaultRole: access.defaultRole,
      groups: null,
    });
  }

  /** The same session a password login ends in (an inactive account refused, the sign-in recorded). */
  private newSession(user: UserRecord, client: ClientInfo, source: SignInSource): Promise<LoginResponse> {
    return this.deps.authentication.signIn(user, client, source);
  }

  /** The cookie's own session, with its remaining lifetime. */
  private async cookieSession(token: string): Promise<LoginResponse> {
    if (looksLikeApiKey(token)) throw unauthorized('This browser is not signed in');
    const principal = await this.deps.authentication.authenticate({ authorization: `Bearer ${token}` });
    if (principal?.method !== 'session') throw unauthorized('This browser is not signed in');
    const expiresAt = decodeJwt(token).exp ?? 0;
    return {
      access_token: token,
      token_type: 'Bearer',
      expires_in: Math.max(0, expiresAt - Math.floor(Date.now() / 1000)),
      user: toLoginUser(principal.user),
    };
  }

  private provider(name: string): OidcProviderConfig {
    const provider = this.deps.config.providers.find((p) => p.name === name);
    if (!provider) throw notFound(`OIDC provider "${name}"`);
    return provider;
  }

  /** The redirect URI registered at the provider: `<public origin>/api/v1/auth/oidc/<name>/callback`. */
  private callbackUrl(provider: OidcProviderConfig, requestOrigin: string): string {
    return `${this.deps.config.redirectUriBase ?? requestOrigin}${OIDC_PATH}/${provider.name}/callback`;
  }

  /**
   * Where a sign-in may return: a path on this server, never another site (an open redirect would let a
   * link that starts at Longbox end anywhere). Absolute URLs on this server's own origin are reduced to
   * their path.
   */
  private returnPath(redirectUri: string | undefined, requestOrigin: string): string {
    if (redirectUri === undefined) return '/';
    const own = new Set([requestOrigin, this.deps.config.redirectUriBase].filter(Boolean));
    let url: URL | undefined;
    try {
      url = new URL(redirectUri, requestOrigin);
    } catch {
      url = undefined;
    }
    const path = url ? url.pathname + url.search + url.hash : '';
    // Judged on the parsed URL, which is what a browser follows (`/\t/evil.example` parses as another host).
    const written = redirectUri.startsWith('/') ? !redirectUri.startsWith('//') : /^https?:\/\//i.test(redirectUri);
    if (!url || !own.has(url.origin) || !written || redirectUri.includes('\\') || path.startsWith('//')) {
      throw badRequest('redirectUri must be a path on this server, such as /libraries', [
        { path: 'redirectUri', message: 'is not a path on this server' },
      ]);
    }
    return path;
  }
}

function providerRules(provider: OidcProviderConfig): AccountRules {
  return { autoCreateUsers: provider.autoCreateUsers, defaultRole: provider.defaultRole, groups: provider.groups };
}

function isReaderAppPath(path: string): boolean {
  return READER_APP_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
