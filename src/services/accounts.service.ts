/**
 * Accounts (API.md §5): registration (when an admin enabled it), e-mail verification, a user changing their own
 * password, and the user creation every path shares (setup, registration, admin). Signing in is
 * authentication.service.ts.
 */
import { hashPassword, hasPassword, NO_PASSWORD, verifyPassword } from '../auth/password';
import type { Principal } from '../auth/principal';
import type { Role } from '../auth/permissions';
import { conflict, forbidden, savedUnlessTaken, unauthorized } from '../lib/errors';
import { newId, nowIso } from '../lib/ids';
import { toLoginUser } from '../mappers/user.mapper';
import type { SessionsRepository } from '../repositories/sessions.repository';
import type { AccessWrite } from '../repositories/user-access.repository';
import type { UserRecord, UsersRepository } from '../repositories/users.repository';
import type { EmailVerification } from './email-verification';
import type { SettingsService } from './settings.service';

/** A username or address another account took between the check and the write (the unique index decides). */
export const ACCOUNT_TAKEN = 'Username or e-mail address is already taken';

export interface AccountsDeps {
  users: UsersRepository;
  sessions: SessionsRepository;
  settings: SettingsService;
  verification: EmailVerification;
  /** Whether a password may sign in an account of this role (docs/DECISIONS.md §Password login). */
  passwordSignIn: (role: Role) => boolean;
}

export class AccountsService {
  constructor(private readonly deps: AccountsDeps) {}

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
    /** Null: no password (an account single sign-on creates signs in through its provider). */
    password: string | null;
    role: Role;
    customPermissions?: string[];
    isActive?: boolean;
    emailVerified?: boolean;
    /** The access the user is created with, written in the same batch as the account (else: every library). */
    access?: AccessWrite;
  }): Promise<UserRecord> {
    await this.assertUnique(input.username, input.email);
    const now = nowIso();
    const passwordHash = input.password === null ? NO_PASSWORD : await hashPassword(input.password);
    // assertUnique gives the clear message; two concurrent creations can both pass it, and the index decides.
    return savedUnlessTaken(
      () =>
        this.deps.users.create(
          {
            id: newId(),
            username: input.username,
            email: input.email,
            passwordHash,
            role: input.role,
            customPermissions: input.customPermissions ?? [],
            isActive: input.isActive ?? true,
            emailVerified: input.emailVerified ?? false,
            createdAt: now,
            updatedAt: now,
          },
          input.access,
        ),
      ACCOUNT_TAKEN,
    );
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

  // ---- the signed-in user's own account -----------------------------------------------------------

  /**
   * A signed-in user changes their own password (the web app's account screen): the current one must be
   * given again. Their other sessions end and API keys' cached Basic checks retire (authVersion); the
   * session making the change stays signed in.
   */
  async changePassword(principal: Principal, currentPassword: string, newPassword: string): Promise<void> {
    assertHasPassword(principal.user);
    if (!(await verifyPassword(currentPassword, principal.user.passwordHash))) {
      // 403, not 401: the session itself is fine, and clients treat 401 as "log in again".
      throw forbidden('The current password is wrong');
    }
    await this.replaceOwnPassword(principal, newPassword);
  }

  /**
   * The signed-in user's new password without the current one (Komga's `PATCH users/me/password`, where being
   * signed in with the account's own credentials is the proof): the same ending of other sessions and retiring
   * of cached Basic checks as `changePassword`. Not through an API key: a key must never take over its owner's
   * account.
   */
  async setOwnPassword(principal: Principal, newPassword: string): Promise<void> {
    if (principal.method === 'api_key') {
      throw forbidden('An API key cannot change its owner’s password: sign in with the account’s password');
    }
    assertHasPassword(principal.user);
    await this.replaceOwnPassword(principal, newPassword);
  }

  private async replaceOwnPassword(principal: Principal, newPassword: string): Promise<void> {
    const user = principal.user;
    const changed = await this.deps.users.update(user.id, {
      passwordHash: await hashPassword(newPassword),
      authVersion: user.authVersion + 1,
      updatedAt: nowIso(),
    });
    if (!changed) throw unauthorized('This account no longer exists');
    await this.deps.sessions.deleteForUser(user.id, principal.sessionId ?? undefined);
  }
}

function assertHasPassword(user: UserRecord): void {
  if (!hasPassword(user)) {
    throw forbidden('This account has no password: it signs in through single sign-on (an admin can set one)');
  }
}
