/**
 * Authentication (API.md §5): signing in with a password, the sessions that follow, and resolving a request's
 * credentials — session tokens, API keys and HTTP Basic — to a `Principal` whose effective permissions are
 * computed per request. Every way of signing in ends in `createSession` (password login, first-run setup,
 * Komga's cookie session). Creating and changing accounts is accounts.service.ts.
 */
import { accessOf, type UserGrants } from '../auth/access';
import {
  hashApiKeySecret,
  komgaApiKeyHash,
  looksLikeApiKey,
  looksLikeKomgaApiKey,
  parseApiKey,
} from '../auth/api-key-format';
import { decoyPasswordHash, hashPassword, hasPassword, needsRehash, verifyPassword } from '../auth/password';
import { effectivePermissions, type Role } from '../auth/permissions';
import type { Principal } from '../auth/principal';
import { type SessionClaims, signSessionToken, verifySessionToken } from '../auth/session-token';
import { fromBase64, hmacSha256, timingSafeEqual, toHex, utf8 } from '../lib/encoding';
import type { Defer } from '../lib/deferred-work';
import { unauthorized } from '../lib/errors';
import { newId, nowIso } from '../lib/ids';
import { toLoginUser } from '../mappers/user.mapper';
import type { ApiKeysRepository } from '../repositories/api-keys.repository';
import type { SessionRecord, SessionsRepository } from '../repositories/sessions.repository';
import type { CounterRelease, SignInRepository } from '../repositories/sign-in.repository';
import type { UserRecord, UsersRepository } from '../repositories/users.repository';
import type { LoginResponse } from '../schemas/auth.schema';
import {
  API_KEY_SIGN_IN_GAP_MS,
  type AuthenticationActivityService,
  type SignInSource,
} from './authentication-activity.service';
import { BasicAuthCache } from './basic-auth-cache';
import { type CheckedCaller, checkedCaller, PrincipalCache } from './principal-cache';
import type { LoginThrottle } from './login-throttle';
import type { SettingsService } from './settings.service';

/** A user as a password sign-in reads them: the row and its grants, in one statement. */
type SignInUser = NonNullable<Awaited<ReturnType<UsersRepository['getForSignIn']>>>;

/** What a sign-in writes beside its session: the throttle counters its right password gives back. */
interface SignInBookkeeping {
  counters?: CounterRelease;
  /**
   * The user's grants as the sign-in just read them: the new session is remembered in the isolate as checked,
   * so its first requests may start beside their credential check.
   */
  grants?: UserGrants;
}

/** How an API key is found and compared (`keyLookup`). */
interface KeyLookup {
  format: 'longbox' | 'komga';
  prefix: string;
  secretHash: string;
}

/** Basic checks under way in this isolate, by keyed credential hash. */
const basicChecksInFlight = new Map<string, Promise<SignInUser>>();

/** Session look-ups under way in this isolate, by user and User-Agent (a client's parallel first calls). */
const clientSessionsInFlight = new Map<string, Promise<ClientSession>>();

/** A session is handed to a client again only while it has at least this long left to live. */
export const SESSION_REUSE_MARGIN_MS = 3600_000;

/**
 * A request's credentials once named (the 401s that need no database are behind): what this isolate found
 * when it last checked the same credential, and the check against the database, under way.
 */
export interface CredentialCheck {
  readonly remembered: CheckedCaller | undefined;
  /** The caller as the database has them now; rejects with the 401 (or whatever failed). */
  readonly verified: Promise<CheckedCaller>;
}

/** A session token for a client's cookie: the token and how many seconds it has left. */
export interface ClientSession {
  access_token: string;
  expires_in: number;
}

/** `last_used_at` is written at most this often per key: no database write on every request. */
export const LAST_USED_WRITE_INTERVAL_MS = 60_000;

/** Where a request comes from, as sessions and the login throttle record it. */
export interface ClientInfo {
  address: string | null;
  userAgent: string | null;
}

const UNKNOWN_CLIENT: ClientInfo = { address: null, userAgent: null };

/** What a reader protocol accepts beyond the API's credentials (`authenticate`). */
export interface AuthenticateOptions {
  basicByEmail?: boolean;
  komgaKeys?: boolean;
}

export interface AuthenticationDeps {
  users: UsersRepository;
  sessions: SessionsRepository;
  apiKeys: ApiKeysRepository;
  settings: SettingsService;
  throttle: LoginThrottle;
  /** A sign-in's writes in one batch. */
  signIns: SignInRepository;
  /** Where sign-ins and failed sign-ins are recorded. */
  activity: AuthenticationActivityService;
  secret: () => Promise<string>;
  /** Whether a password may sign in an account of this role (docs/DECISIONS.md §Password login). */
  passwordSignIn: (role: Role) => boolean;
  /**
   * Runs work after the response (ctx.waitUntil). The check's own bookkeeping: never held back with an
   * answer made before the check (lib/deferred-work.ts).
   */
  defer: Defer;
  /**
   * The credential statements' repositories on the primary, when `users`, `sessions` and `apiKeys` read a
   * replica (read replicas: DECISIONS.md §Far readers); null when they read the primary already.
   */
  primary: CheckRepositories | null;
}

/** What a credential check reads. */
export interface CheckRepositories {
  users: UsersRepository;
  sessions: SessionsRepository;
  apiKeys: ApiKeysRepository;
}

/**
 * With read replicas, how long a credential checked on the primary is then checked on the replica: a key
 * revoked (or a session ended) after that check passes a replica's check at most until this has passed
 * since it — whatever the replica's lag — and then fails on the primary.
 */
export const PRIMARY_RECHECK_MS = 60_000;

export class AuthenticationService {
  constructor(private readonly deps: AuthenticationDeps) {}

  // ---- signing in -------------------------------------------------------------------------

  /**
   * Two round trips (issue 30): the attempt counted with the account and the settings read, then, after the
   * hash, one batch writing the throttle's release, the session, the last sign-in and the activity row.
   * A user name cannot contain `@` (UsernameSchema), so a name with one may be the account's e-mail address,
   * throttled as the account it names (issue 31 point 2).
   */
  async login(username: string, password: string, client: ClientInfo): Promise<LoginResponse> {
    const byEmail = username.includes('@');
    const attempt = await this.deps.throttle.attempt(username, client.address, { byEmail, withSettings: true });
    if (attempt.settings) this.deps.settings.prime(attempt.settings);
    const { user, grants } = await this.checkPassword(attempt.found, username, password, 'Password', client);
    const counters = this.deps.throttle.success(attempt.throttledName, client.address);
    await this.refuseUnless({ source: 'Password', client, user }, () => this.assertPasswordSignIn(user), counters);
    return this.signIn(user, client, 'Password', { counters, grants });
  }

  /**
   * Signs in a user who has proven who they are (a password here; single sign-on beside it): an inactive
   * account is refused, then the session is issued and the sign-in recorded, in one batch.
   */
  async signIn(
    user: UserRecord,
    client: ClientInfo,
    source: SignInSource,
    bookkeeping: SignInBookkeeping = {},
  ): Promise<LoginResponse> {
    await this.refuseUnless({ source, client, user }, () => this.assertActive(user), bookkeeping.counters);
    const { session, response } = await this.issueSession(user, client);
    const writes = { counters: bookkeeping.counters, session, lastLogin: { userId: user.id, at: session.createdAt } };
    try {
      await this.deps.signIns.record({ ...writes, activity: this.deps.activity.rowOf({ source, client, user }) });
    } catch {
      // The activity log must never turn a good sign-in into an error: the sign-in is written without it.
      await this.deps.signIns.record(writes);
    }
    if (bookkeeping.grants) {
      // The session's first requests in this isolate may start before their check returns, as if it had been
      // checked once already (docs/ARCHITECTURE.md, "The credential check beside the request").
      const signedIn = { ...user, lastLoginAt: session.createdAt };
      const principal = sessionPrincipal(signedIn, bookkeeping.grants, session.id);
      PrincipalCache.set(`session:${session.id}`, checkedCaller(principal, Date.now()));
    }
    return response;
  }

  /** Issues a session to the user: its row (lifetime from the settings) and the signed token that names it. */
  async createSession(user: UserRecord, client: ClientInfo): Promise<LoginResponse> {
    const { session, response } = await this.issueSession(user, client);
    await this.deps.sessions.create(session);
    return response;
  }

  /** A new session's row, not yet written, and the token naming it. */
  private async issueSession(
    user: UserRecord,
    client: ClientInfo,
  ): Promise<{ session: SessionRecord; response: LoginResponse }> {
    const hours = await this.deps.settings.value('auth.session_lifetime_hours');
    const lifetimeSeconds = hours * 3600;
    const sessionId = newId();
    const now = new Date();
    const session: SessionRecord = {
      id: sessionId,
      userId: user.id,
      userAgent: client.userAgent?.slice(0, 512) ?? null,
      clientAddress: client.address,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + lifetimeSeconds * 1000).toISOString(),
    };
    const token = await signSessionToken(
      { userId: user.id, sessionId, role: user.role },
      await this.deps.secret(),
      lifetimeSeconds,
    );
    const response = {
      access_token: token,
      token_type: 'Bearer' as const,
      expires_in: lifetimeSeconds,
      user: toLoginUser(user),
    };
    return { session, response };
  }

  /**
   * A session for a client that authenticated by header and wants a cookie (/komga): the live session it
   * already holds from this User-Agent when there is one, so a client that sends credentials with every
   * call and keeps no cookies (Paperback, Komf) does not leave a new 24 h row per call; else a new one.
   */
  async sessionForClient(
    user: UserRecord,
    client: ClientInfo,
    beforeWrite: () => Promise<void> = async () => undefined,
  ): Promise<ClientSession> {
    const userAgent = client.userAgent?.slice(0, 512) ?? null;
    const key = `${user.id}\n${userAgent ?? ''}`;
    let pending = clientSessionsInFlight.get(key);
    if (!pending) {
      pending = this.reuseOrCreateSession(user, client, userAgent, beforeWrite).finally(() =>
        clientSessionsInFlight.delete(key),
      );
      clientSessionsInFlight.set(key, pending);
    }
    return pending;
  }

  /** `beforeWrite`: awaited before a new session is written (the caller's credential check, when under way). */
  private async reuseOrCreateSession(
    user: UserRecord,
    client: ClientInfo,
    userAgent: string | null,
    beforeWrite: () => Promise<void>,
  ) {
    const now = Date.now();
    const live = await this.deps.sessions.findReusable(
      user.id,
      userAgent,
      new Date(now + SESSION_REUSE_MARGIN_MS).toISOString(),
    );
    if (!live) {
      await beforeWrite();
      return this.createSession(user, client);
    }
    const lifetimeSeconds = Math.floor((Date.parse(live.expiresAt) - now) / 1000);
    const token = await signSessionToken(
      { userId: user.id, sessionId: live.id, role: user.role },
      await this.deps.secret(),
      lifetimeSeconds,
    );
    return { access_token: token, expires_in: lifetimeSeconds };
  }

  /** The user a session token names, checked by signature and expiry only (no database read). */
  async sessionTokenUserId(token: string): Promise<string | null> {
    return (await verifySessionToken(token, await this.deps.secret()))?.userId ?? null;
  }

  async logout(principal: Principal): Promise<void> {
    if (principal.sessionId) await this.deps.sessions.delete(principal.sessionId);
  }

  /**
   * Verifies a password with constant work whether or not the user exists, or has a password; a wrong one is
   * recorded as a failed sign-in (of the account the name belongs to, if any) and answered 401.
   */
  private async checkPassword(
    found: SignInUser | undefined,
    name: string,
    password: string,
    source: SignInSource,
    client: ClientInfo,
  ): Promise<SignInUser> {
    const user = found?.user;
    const hash = user && hasPassword(user) ? user.passwordHash : await decoyPasswordHash();
    const ok = await verifyPassword(password, hash);
    if (ok && found && hash === found.user.passwordHash) {
      if (needsRehash(hash)) await this.rehash(found.user, password);
      return found;
    }
    const error = 'Invalid username or password';
    await this.deps.activity.record({ source, client, user: user ?? null, name, error });
    throw unauthorized(error);
  }

  /**
   * A password imported from Komga or Kavita has just been checked: it is stored again as Longbox's own hash
   * (docs/DECISIONS.md §Imported credentials), before the answer, so the peer's hash is gone after the first
   * sign-in. The password is the same, so sessions and cached Basic checks stay valid.
   */
  private async rehash(user: UserRecord, password: string): Promise<void> {
    const next = await hashPassword(password);
    await this.deps.users.replacePasswordHash(user.id, user.passwordHash, next);
    user.passwordHash = next;
  }

  /**
   * Runs a check of a sign-in; a refusal is recorded as a failed sign-in before it is thrown. `counters`: the
   * throttle counters a right password gives back, given back before a refusal too (the password was right).
   */
  private async refuseUnless(
    attempt: { source: SignInSource; client: ClientInfo; user: UserRecord; apiKey?: { id: string; name: string } },
    check: () => void,
    counters?: CounterRelease,
  ): Promise<void> {
    try {
      check();
    } catch (error) {
      if (counters) await this.deps.signIns.record({ counters });
      await this.deps.activity.record({ ...attempt, error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  }

  private assertPasswordSignIn(user: UserRecord): void {
    if (!this.deps.passwordSignIn(user.role)) {
      throw unauthorized('Password sign-in is turned off on this server: use single sign-on, or an API key');
    }
  }

  /** An inactive account signs in no way: not with a password, a token, an API key or single sign-on. */
  assertActive(user: UserRecord): void {
    if (!user.isActive) {
      throw unauthorized(
        user.emailVerified ? 'This account is disabled' : 'This account is not active yet: verify your e-mail address',
      );
    }
  }

  // ---- authenticating a request --------------------------------------------------------------

  /**
   * Resolves the request's credentials; null when none were sent. Throws 401 for bad ones. `basicByEmail`:
   * a Basic name with an `@` may be the account's e-mail address (Komga's clients: Mihon asks for "the
   * user account email"); the password check and its throttling are the same. `komgaKeys`: an API key in
   * Komga's format is one imported from Komga (`/komga` and KOReader sync; elsewhere it is malformed).
   */
  async authenticate(
    headers: { authorization?: string; apiKey?: string },
    client: ClientInfo = UNKNOWN_CLIENT,
    options: AuthenticateOptions = {},
  ): Promise<Principal | null> {
    const check = await this.check(headers, client, options);
    return check && (await check.verified).principal;
  }

  /**
   * `authenticate` in its two phases (docs/ARCHITECTURE.md, "The credential check beside the request"):
   * what needs no database — the header's form, an API key's keyed hash, a session token's signature —
   * is done before this returns (a 401 for what fails it), and names the credential; the check against the
   * database has started but is not awaited (`verified`). `remembered` is what this isolate found the last
   * time it checked the same credential, which a caller may start working as before `verified` settles.
   */
  async check(
    headers: { authorization?: string; apiKey?: string },
    client: ClientInfo = UNKNOWN_CLIENT,
    options: AuthenticateOptions = {},
  ): Promise<CredentialCheck | null> {
    if (headers.apiKey !== undefined) return this.apiKeyCheck(headers.apiKey.trim(), client, options);
    const authorization = headers.authorization?.trim();
    if (!authorization) return null;
    const space = authorization.indexOf(' ');
    const scheme = (space < 0 ? authorization : authorization.slice(0, space)).toLowerCase();
    const value = space < 0 ? '' : authorization.slice(space + 1).trim();
    if (scheme === 'bearer') {
      if (!value) throw unauthorized('Empty bearer token');
      // A Komga key sent where only Longbox keys count is still a key, of a format not accepted there.
      const isKey = looksLikeApiKey(value) || looksLikeKomgaApiKey(value);
      return isKey ? this.apiKeyCheck(value, client, options) : this.sessionCheck(value);
    }
    if (scheme === 'basic') return this.basicCheck(value, client, options);
    throw unauthorized(`Unsupported authorization scheme: ${scheme}`);
  }

  /**
   * The check of a credential named by `key`, remembered in the isolate when it succeeds. With read replicas
   * it reads the replica, except that a credential this isolate has not checked on the primary within
   * PRIMARY_RECHECK_MS is checked there.
   */
  private checking(key: string, verify: (on: CheckRepositories) => Promise<Principal>): CredentialCheck {
    const remembered = PrincipalCache.get(key);
    const { primary } = this.deps;
    const recheck = !remembered || Date.now() - remembered.checkedOnPrimaryAt >= PRIMARY_RECHECK_MS;
    const onPrimary = primary === null || recheck;
    const verified = verify(primary && recheck ? primary : this.deps).then(
      (principal) => {
        const caller = checkedCaller(principal, onPrimary ? Date.now() : (remembered?.checkedOnPrimaryAt ?? 0));
        PrincipalCache.set(key, caller);
        return caller;
      },
      (error: unknown) => {
        PrincipalCache.delete(key);
        throw error;
      },
    );
    // Whoever asked awaits it; this only keeps a refusal that comes before they do from counting as unhandled.
    verified.catch(() => undefined);
    return { remembered, verified };
  }

  private async sessionCheck(token: string): Promise<CredentialCheck> {
    const claims = await verifySessionToken(token, await this.deps.secret());
    if (!claims) throw unauthorized('Invalid or expired session token');
    // The signature proves the token is ours: its session id names the credential.
    return this.checking(`session:${claims.sessionId}`, (on) => this.fromSession(on, claims));
  }

  private async fromSession(on: CheckRepositories, claims: SessionClaims): Promise<Principal> {
    const found = await on.sessions.getLiveWithUser(claims.sessionId, claims.userId, nowIso());
    if (!found) throw unauthorized('Session has ended; log in again');
    const { session, user, grants } = found;
    this.assertActive(user);
    return sessionPrincipal(user, grants, session.id);
  }

  private async apiKeyCheck(key: string, client: ClientInfo, options: AuthenticateOptions): Promise<CredentialCheck> {
    // Computed whether or not the prefix exists, so timing does not tell which prefixes do; it is also
    // what names the key in the isolate (no second hash).
    const lookup = await this.keyLookup(key, options);
    return this.checking(`key:${lookup.format}:${lookup.prefix}:${lookup.secretHash}`, (on) =>
      this.fromApiKey(on, lookup, client),
    );
  }

  private async fromApiKey(on: CheckRepositories, lookup: KeyLookup, client: ClientInfo): Promise<Principal> {
    const stored = await on.apiKeys.getWithOwnerByPrefix(lookup.prefix);
    // A Komga key is found by its whole hash, never by a Longbox prefix, nor the other way round.
    const found = stored?.key.format === lookup.format ? stored : undefined;
    const expected = found ? utf8(found.key.secretHash) : utf8('0'.repeat(lookup.secretHash.length));
    // A key nobody holds is not recorded: there is no account to show it to, and anyone could fill the log.
    if (!found) throw unauthorized('Invalid API key');
    const { key: record, owner: user, grants, keyLibraries } = found;
    const attempt = { source: 'ApiKey' as const, client, user, apiKey: { id: record.id, name: record.name } };
    const now = Date.now();
    const refusal = !timingSafeEqual(utf8(lookup.secretHash), expected)
      ? 'Invalid API key'
      : record.expiresAt && Date.parse(record.expiresAt) <= now
        ? 'API key has expired'
        : undefined;
    if (refusal) {
      // Recorded after the answer, so a wrong secret is refused as fast whether or not its prefix exists;
      // tried again if the write fails, since this refusal is what the account's owner would look for.
      this.deps.defer(() => this.deps.activity.insert({ ...attempt, error: refusal }), { retries: 2 });
      throw unauthorized(refusal);
    }
    await this.refuseUnless(attempt, () => this.assertActive(user));
    const idle = record.lastUsedAt ? now - Date.parse(record.lastUsedAt) : Number.POSITIVE_INFINITY;
    const usedAt = new Date(now).toISOString();
    if (idle >= API_KEY_SIGN_IN_GAP_MS) {
      // A key used again after a pause is a sign-in; its use in between is not (no write per request). Both
      // written before the answer, so the key's next request finds it in use and records nothing.
      await Promise.all([this.deps.apiKeys.touchLastUsed(record.id, usedAt), this.deps.activity.record(attempt)]);
    } else if (idle >= LAST_USED_WRITE_INTERVAL_MS) {
      this.deps.defer(() => this.deps.apiKeys.touchLastUsed(record.id, usedAt));
    }
    return {
      user,
      method: 'api_key',
      apiKey: {
        id: record.id,
        name: record.name,
        libraryIds: keyLibraries,
        permissions: record.permissions,
        expiresAt: record.expiresAt,
      },
      permissions: effectivePermissions(user.role, user.customPermissions, record.permissions),
      access: accessOf(user, grants, keyLibraries),
      grants,
    };
  }

  /**
   * How a key is looked up and checked: a Longbox key by its prefix, then the keyed hash of its secret; a Komga
   * key (where allowed) by its SHA-512, as Komga stores it, which is then also what is compared.
   */
  private async keyLookup(key: string, options: AuthenticateOptions): Promise<KeyLookup> {
    if (options.komgaKeys && looksLikeKomgaApiKey(key)) {
      const hash = await komgaApiKeyHash(key);
      return { format: 'komga', prefix: hash, secretHash: hash };
    }
    const parsed = parseApiKey(key);
    if (!parsed) throw unauthorized('Invalid API key format');
    const secretHash = await hashApiKeySecret(parsed.secret, await this.deps.secret());
    return { format: 'longbox', prefix: parsed.prefix, secretHash };
  }

  private async basicCheck(
    encoded: string,
    client: ClientInfo,
    options: AuthenticateOptions,
  ): Promise<CredentialCheck> {
    const byEmail = options.basicByEmail ?? false;
    let decoded: string;
    try {
      decoded = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(fromBase64(encoded));
    } catch {
      throw unauthorized('Malformed Basic credentials');
    }
    const colon = decoded.indexOf(':');
    if (colon < 0) throw unauthorized('Malformed Basic credentials');
    const username = decoded.slice(0, colon);
    const password = decoded.slice(colon + 1);
    // Reader apps that only speak Basic send `api:<API key>`.
    if (username.toLowerCase() === 'api') return this.apiKeyCheck(password, client, options);
    const cacheKey = toHex(await hmacSha256(await this.deps.secret(), `basic:${username}:${password}`));
    return this.checking(`basic:${cacheKey}`, (on) =>
      this.fromBasic(on, username, password, byEmail, client, cacheKey),
    );
  }

  private async fromBasic(
    on: CheckRepositories,
    username: string,
    password: string,
    byEmail: boolean,
    client: ClientInfo,
    cacheKey: string,
  ): Promise<Principal> {
    const orEmail = byEmail && username.includes('@');
    const cached = BasicAuthCache.get(cacheKey);
    if (cached) {
      const found = await on.users.getWithGrants(cached.userId);
      const user = found?.user;
      // A rename does not bump authVersion, so the name is compared too: the old name must stop working.
      const name = username.toLowerCase();
      const sameName = user?.username.toLowerCase() === name || (orEmail && user?.email === name);
      if (found && user && sameName && user.authVersion === cached.authVersion && user.isActive) {
        return basicPrincipal(found);
      }
      BasicAuthCache.delete(cacheKey);
    }
    // A reader app opening a book fires many page requests at once with the same credentials: they
    // share one password check, so they neither pay the hash many times nor use up the throttle.
    let pending = basicChecksInFlight.get(cacheKey);
    if (!pending) {
      pending = this.checkBasic(username, password, orEmail, client, cacheKey).finally(() =>
        basicChecksInFlight.delete(cacheKey),
      );
      basicChecksInFlight.set(cacheKey, pending);
    }
    // The password check read the user with their grants, in one statement.
    return basicPrincipal(await pending);
  }

  /**
   * The principal of a user whose identity was proven another way (Cloudflare Access): their grants are
   * read now. A user gone meanwhile sees nothing.
   */
  async principalOf(user: UserRecord, method: 'cloudflare_access'): Promise<Principal> {
    const found = await this.deps.users.getWithGrants(user.id);
    const grants: UserGrants = found?.grants ?? { libraryIds: [], labels: [] };
    const current = found?.user ?? user;
    return {
      user: current,
      method,
      permissions: effectivePermissions(current.role, current.customPermissions),
      access: accessOf(current, grants),
      grants,
    };
  }

  /**
   * The caller as they are now (an open event stream asks again as it runs): their user row, grants and
   * API key read afresh. Null when the user is gone or inactive, or the key revoked or expired: the
   * stream then ends.
   */
  async refreshed(principal: Principal): Promise<Principal | null> {
    if (principal.apiKey) {
      // One statement: the key, its libraries, its owner and their grants.
      const found = await this.deps.apiKeys.getOwnedWithOwner(principal.apiKey.id, principal.user.id);
      if (!found?.owner.isActive) return null;
      if (found.key.expiresAt && Date.parse(found.key.expiresAt) <= Date.now()) return null;
      return {
        ...principal,
        user: found.owner,
        access: accessOf(found.owner, found.grants, found.keyLibraries),
        grants: found.grants,
      };
    }
    const found = await this.deps.users.getWithGrants(principal.user.id);
    if (!found?.user.isActive) return null;
    return { ...principal, user: found.user, access: accessOf(found.user, found.grants, null), grants: found.grants };
  }

  /**
   * A Basic password not yet checked in this isolate: the attempt counted with the account read (one round
   * trip), the hash, and the answer. The bookkeeping of a right password (the throttle counters given back,
   * the activity row) does not shape the answer: it is written after it, retried, and logged if it still fails
   * (a lost release would leave this success counted as a failure).
   */
  private async checkBasic(
    name: string,
    password: string,
    orEmail: boolean,
    client: ClientInfo,
    cacheKey: string,
  ): Promise<SignInUser> {
    const { throttle } = this.deps;
    // Throttled under the account's username whichever name was typed (an e-mail address is throttled as the
    // account it names), as a sign-in with the username would be.
    const attempt = await throttle.attempt(name, client.address, { byEmail: orEmail, withSettings: false });
    const checked = await this.checkPassword(attempt.found, name, password, 'Basic', client);
    const user = checked.user;
    const counters = throttle.success(attempt.throttledName, client.address);
    await this.refuseUnless(
      { source: 'Basic', client, user },
      () => {
        this.assertActive(user);
        this.assertPasswordSignIn(user);
      },
      counters,
    );
    BasicAuthCache.set(cacheKey, { userId: user.id, authVersion: user.authVersion });
    // Recorded when the password is really checked, not on each request the cache then lets through.
    const activity = this.deps.activity.rowOf({ source: 'Basic', client, user });
    this.deps.defer(() => this.deps.signIns.record({ counters, activity }), { retries: 2 });
    return checked;
  }
}

function sessionPrincipal(user: UserRecord, grants: UserGrants, sessionId: string): Principal {
  return {
    user,
    method: 'session',
    sessionId,
    permissions: effectivePermissions(user.role, user.customPermissions),
    access: accessOf(user, grants),
    grants,
  };
}

function basicPrincipal({ user, grants }: SignInUser): Principal {
  return {
    user,
    method: 'basic',
    permissions: effectivePermissions(user.role, user.customPermissions),
    access: accessOf(user, grants),
    grants,
  };
}
