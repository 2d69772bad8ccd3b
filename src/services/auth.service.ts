/**
 * Signing in (API.md §5): session tokens, API keys and HTTP Basic, each resolving to a `Principal`
 * whose effective permissions are computed per request. Also login, logout and registration.
 */
import { hashApiKeySecret, looksLikeApiKey, parseApiKey } from '../auth/api-key-format';
import { decoyPasswordHash, hashPassword, verifyPassword } from '../auth/password';
import { effectivePermissions, type Role } from '../auth/permissions';
import type { Principal } from '../auth/principal';
import { signSessionToken, verifySessionToken } from '../auth/session-token';
import { fromBase64, hmacSha256, timingSafeEqual, toHex, utf8 } from '../lib/encoding';
import { conflict, forbidden, unauthorized } from '../lib/errors';
import { newId, nowIso } from '../lib/ids';
import type { ApiKeysRepository } from '../repositories/api-keys.repository';
import type { SessionsRepository } from '../repositories/sessions.repository';
import type { UserRecord, UsersRepository } from '../repositories/users.repository';
import type { LoginResponse } from '../schemas/auth.schema';
import type { LoginThrottle } from './login-throttle';
import type { SettingsService } from './settings.service';
import { BasicAuthCache } from './basic-auth-cache';
import type { EmailVerification } from './email-verification';

/** Basic checks under way in this isolate, by keyed credential hash. */
const basicChecksInFlight = new Map<string, Promise<UserRecord>>();

/** `last_used_at` is written at most this often per key: no database write on every request. */
export const LAST_USED_WRITE_INTERVAL_MS = 60_000;

export interface ClientInfo {
  address: string | null;
  userAgent: string | null;
}

export interface AuthDeps {
  users: UsersRepository;
  sessions: SessionsRepository;
  apiKeys: ApiKeysRepository;
  settings: SettingsService;
  throttle: LoginThrottle;
  verification: EmailVerification;
  secret: () => Promise<string>;
  /** Whether a password may sign in an account of this role (docs/DECISIONS-sso.md §Password login). */
  passwordSignIn: (role: Role) => boolean;
  /** Runs work after the response (ctx.waitUntil). */
  defer: (work: Promise<unknown>) => void;
}

export const toLoginUser = (u: UserRecord) => ({ id: u.id, username: u.username, email: u.email, role: u.role });

export class AuthService {
  constructor(private readonly deps: AuthDeps) {}

  // ---- signing in -------------------------------------------------------------------------

  async login(username: string, password: string, client: ClientInfo): Promise<LoginResponse> {
    const { throttle, users } = this.deps;
    await throttle.reserve(username, client.address);
    const user = await this.checkPassword(username, password);
    if (!user) throw unauthorized('Invalid username or password');
    await throttle.recordSuccess(username, client.address);
    this.assertActive(user);
    this.assertPasswordSignIn(user);
    const response = await this.createSession(user, client);
    this.deps.defer(users.touchLastLogin(user.id, nowIso()));
    return response;
  }

  async createSession(user: UserRecord, client: ClientInfo): Promise<LoginResponse> {
    const hours = await this.deps.settings.value('auth.session_lifetime_hours');
    const lifetimeSeconds = hours * 3600;
    const sessionId = newId();
    const now = new Date();
    await this.deps.sessions.create({
      id: sessionId,
      userId: user.id,
      userAgent: client.userAgent?.slice(0, 512) ?? null,
      clientAddress: client.address,
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + lifetimeSeconds * 1000).toISOString(),
    });
    const token = await signSessionToken(
      { userId: user.id, sessionId, role: user.role },
      await this.deps.secret(),
      lifetimeSeconds,
    );
    return { access_token: token, token_type: 'Bearer', expires_in: lifetimeSeconds, user: toLoginUser(user) };
  }

  async logout(principal: Principal): Promise<void> {
    if (principal.sessionId) await this.deps.sessions.delete(principal.sessionId);
  }

  /**
   * A signed-in user changes their own password (the web app's account screen): the current one must be
   * given again. Their other sessions end and API keys' cached Basic checks retire (authVersion); the
   * session making the change stays signed in.
   */
  async changePassword(principal: Principal, currentPassword: string, newPassword: string): Promise<void> {
    const user = principal.user;
    if (!(await verifyPassword(currentPassword, user.passwordHash))) {
      // 403, not 401: the session itself is fine, and clients treat 401 as "log in again".
      throw forbidden('The current password is wrong');
    }
    const changed = await this.deps.users.update(user.id, {
      passwordHash: await hashPassword(newPassword),
      authVersion: user.authVersion + 1,
      updatedAt: nowIso(),
    });
    if (!changed) throw unauthorized('This account no longer exists');
    await this.deps.sessions.deleteForUser(user.id, principal.sessionId ?? undefined);
  }

  /** Verifies a password with constant work whether or not the user exists. */
  private async checkPassword(username: string, password: string): Promise<UserRecord | undefined> {
    const user = await this.deps.users.getByUsername(username);
    const ok = await verifyPassword(password, user?.passwordHash ?? (await decoyPasswordHash()));
    return ok ? user : undefined;
  }

  private assertPasswordSignIn(user: UserRecord): void {
    if (!this.deps.passwordSignIn(user.role)) {
      throw unauthorized('Password sign-in is turned off on this server: use single sign-on, or an API key');
    }
  }

  assertActive(user: UserRecord): void {
    if (!user.isActive) {
      throw unauthorized(
        user.emailVerified ? 'This account is disabled' : 'This account is not active yet: verify your e-mail address',
      );
    }
  }

  // ---- authenticating a request --------------------------------------------------------------

  /** Resolves the request's credentials; null when none were sent. Throws 401 for bad ones. */
  async authenticate(
    headers: { authorization?: string; apiKey?: string },
    clientAddress: string | null = null,
  ): Promise<Principal | null> {
    if (headers.apiKey !== undefined) return this.fromApiKey(headers.apiKey.trim());
    const authorization = headers.authorization?.trim();
    if (!authorization) return null;
    const space = authorization.indexOf(' ');
    const scheme = (space < 0 ? authorization : authorization.slice(0, space)).toLowerCase();
    const value = space < 0 ? '' : authorization.slice(space + 1).trim();
    if (scheme === 'bearer') {
      if (!value) throw unauthorized('Empty bearer token');
      return looksLikeApiKey(value) ? this.fromApiKey(value) : this.fromSessionToken(value);
    }
    if (scheme === 'basic') return this.fromBasic(value, clientAddress);
    throw unauthorized(`Unsupported authorization scheme: ${scheme}`);
  }

  private async fromSessionToken(token: string): Promise<Principal> {
    const claims = await verifySessionToken(token, await this.deps.secret());
    if (!claims) throw unauthorized('Invalid or expired session token');
    const found = await this.deps.sessions.getLiveWithUser(claims.sessionId, claims.userId, nowIso());
    if (!found) throw unauthorized('Session has ended; log in again');
    const { session, user } = found;
    this.assertActive(user);
    return {
      user,
      method: 'session',
      sessionId: session.id,
      permissions: effectivePermissions(user.role, user.customPermissions),
    };
  }

  private async fromApiKey(key: string): Promise<Principal> {
    const parsed = parseApiKey(key);
    if (!parsed) throw unauthorized('Invalid API key format');
    const found = await this.deps.apiKeys.getWithOwnerByPrefix(parsed.prefix);
    // The hash is computed whether or not the prefix exists, so timing does not tell which prefixes do.
    const expected = found ? utf8(found.key.secretHash) : utf8('0'.repeat(64));
    const actual = utf8(await hashApiKeySecret(parsed.secret, await this.deps.secret()));
    if (!found || !timingSafeEqual(actual, expected)) throw unauthorized('Invalid API key');
    const { key: record, owner: user } = found;
    const now = Date.now();
    if (record.expiresAt && Date.parse(record.expiresAt) <= now) throw unauthorized('API key has expired');
    this.assertActive(user);
    if (!record.lastUsedAt || now - Date.parse(record.lastUsedAt) >= LAST_USED_WRITE_INTERVAL_MS) {
      this.deps.defer(this.deps.apiKeys.touchLastUsed(record.id, new Date(now).toISOString()));
    }
    return {
      user,
      method: 'api_key',
      apiKey: { id: record.id, name: record.name },
      permissions: effectivePermissions(user.role, user.customPermissions, record.permissions),
    };
  }

  private async fromBasic(encoded: string, clientAddress: string | null): Promise<Principal> {
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
    if (username.toLowerCase() === 'api') return this.fromApiKey(password);

    const cacheKey = toHex(await hmacSha256(await this.deps.secret(), `basic:${username}:${password}`));
    const cached = BasicAuthCache.get(cacheKey);
    if (cached) {
      const user = await this.deps.users.getById(cached.userId);
      // A rename does not bump authVersion, so the name is compared too: the old name must stop working.
      const sameName = user?.username.toLowerCase() === username.toLowerCase();
      if (user && sameName && user.authVersion === cached.authVersion && user.isActive) {
        return { user, method: 'basic', permissions: effectivePermissions(user.role, user.customPermissions) };
      }
      BasicAuthCache.delete(cacheKey);
    }
    // A reader app opening a book fires many page requests at once with the same credentials: they
    // share one password check, so they neither pay the hash many times nor use up the throttle.
    let pending = basicChecksInFlight.get(cacheKey);
    if (!pending) {
      pending = this.checkBasic(username, password, clientAddress, cacheKey).finally(() =>
        basicChecksInFlight.delete(cacheKey),
      );
      basicChecksInFlight.set(cacheKey, pending);
    }
    const user = await pending;
    return { user, method: 'basic', permissions: effectivePermissions(user.role, user.customPermissions) };
  }

  private async checkBasic(username: string, password: string, clientAddress: string | null, cacheKey: string) {
    await this.deps.throttle.reserve(username, clientAddress);
    const user = await this.checkPassword(username, password);
    if (!user) throw unauthorized('Invalid username or password');
    await this.deps.throttle.recordSuccess(username, clientAddress);
    this.assertActive(user);
    this.assertPasswordSignIn(user);
    BasicAuthCache.set(cacheKey, { userId: user.id, authVersion: user.authVersion });
    return user;
  }

  // ---- registration ---------------------------------------------------------------------------

  async register(input: { username: string; email: string; password: string }) {
    if (!(await this.deps.settings.value('auth.registration_enabled'))) {
      throw forbidden('Registration is disabled on this server');
    }
    const verificationRequired = await this.deps.settings.value('auth.email_verification_required');
    const role: Role = await this.deps.settings.value('auth.default_role');
    if (!this.deps.passwordSignIn(role))
      throw forbidden('Registration is disabled: this server signs in with single sign-on');
    const user = await this.createUser({ ...input, role, isActive: !verificationRequired });
    if (verificationRequired) await this.deps.verification.send(user);
    return {
      user: toLoginUser(user),
      verificationRequired,
      message: verificationRequired
        ? 'Account created. Follow the link sent to your e-mail address to activate it.'
        : 'Account created. You can log in now.',
    };
  }

  /** Creates a user after the uniqueness checks every path (setup, register, admin) shares. */
  async createUser(input: {
    username: string;
    email: string;
    password: string;
    role: Role;
    customPermissions?: string[];
    isActive?: boolean;
    emailVerified?: boolean;
  }): Promise<UserRecord> {
    await this.assertUnique(input.username, input.email);
    const now = nowIso();
    try {
      return await this.deps.users.create({
        id: newId(),
        username: input.username,
        email: input.email,
        passwordHash: await hashPassword(input.password),
        role: input.role,
        customPermissions: input.customPermissions ?? [],
        isActive: input.isActive ?? true,
        emailVerified: input.emailVerified ?? false,
        createdAt: now,
        updatedAt: now,
      });
    } catch (error) {
      // Two concurrent creations can both pass assertUnique; the unique index decides.
      if (String(error).includes('UNIQUE')) throw conflict('Username or e-mail address is already taken');
      throw error;
    }
  }

  async assertUnique(username: string | undefined, email: string | undefined, exceptUserId?: string) {
    const details = [];
    if (username !== undefined) {
      const other = await this.deps.users.getByUsername(username);
      if (other && other.id !== exceptUserId) details.push({ path: 'username', message: 'is already taken' });
    }
    if (email !== undefined) {
      const other = await this.deps.users.getByEmail(email);
      if (other && other.id !== exceptUserId) details.push({ path: 'email', message: 'is already registered' });
    }
    if (details.length > 0) {
      throw conflict(
        details.length === 2
          ? 'Username and e-mail address are already taken'
          : details[0]?.path === 'username'
            ? 'Username is already taken'
            : 'E-mail address is already registered',
        details,
      );
    }
  }

  async verifyEmail(token: string): Promise<void> {
    await this.deps.verification.verify(token);
  }

  async resendVerification(email: string): Promise<void> {
    const user = await this.deps.users.getByEmail(email);
    // Same answer whether or not the address is known: no account enumeration.
    if (user && !user.emailVerified) await this.deps.verification.resend(user);
  }
}
