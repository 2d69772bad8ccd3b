/**
 * Which Longbox account a single-sign-on identity is (docs/DECISIONS.md §Single sign-on: accounts), the same rules
 * for every OIDC provider and for Cloudflare Access:
 * 1. an identity already linked signs in to its account;
 * 2. otherwise, only with an e-mail address the provider verified: the account with that address, when
 *    it has no identity of that provider yet (a second identity cannot take over a linked account), or a
 *    new account when the provider's configuration allows creating them;
 * 3. at every sign-in the groups claim decides the role, and the libraries when the mapping has library rules.
 * A refusal is a 401 saying why, decided before anything is written: no account is created or changed.
 */
import type { ExternalIdentity } from '../auth/external-identity';
import { type GroupMapping, resolveGroupGrants } from '../auth/group-mapping';
import { randomToken } from '../auth/oidc/pkce';
import type { Role } from '../auth/permissions';
import { notFound, unauthorized } from '../lib/errors';
import { newId, nowIso } from '../lib/ids';
import type { OidcIdentitiesRepository, OidcIdentityRecord } from '../repositories/oidc-identities.repository';
import type { UserAccessRepository } from '../repositories/user-access.repository';
import type { UserRecord, UsersRepository } from '../repositories/users.repository';
import type { AccountsService } from './accounts.service';
import type { AuthenticationService } from './authentication.service';

export interface AccountRules {
  autoCreateUsers: boolean;
  defaultRole: Role;
  /** Null: the provider sends no groups Longbox maps (Cloudflare Access), roles are managed in Longbox. */
  groups: GroupMapping | null;
}

/** A linked identity's sign-in is recorded at most this often (Access signs in every request). */
const SIGN_IN_RECORD_INTERVAL_MS = 10 * 60_000;
const USERNAME = /^[A-Za-z0-9._-]{3,64}$/;

export class SsoAccountsService {
  constructor(
    private readonly users: UsersRepository,
    private readonly identities: OidcIdentitiesRepository,
    private readonly accounts: AccountsService,
    private readonly authentication: AuthenticationService,
    private readonly access: UserAccessRepository,
  ) {}

  /** The account `identity` signs in to, linked or created by the rules above; 401 when refused. */
  async accountFor(identity: ExternalIdentity, rules: AccountRules): Promise<UserRecord> {
    const linked = await this.identities.findWithUser(identity.provider, identity.subject);
    if (linked) {
      this.authentication.assertActive(linked.user);
      await this.recordSignIn(linked.identity, identity);
      return this.applyGroups(linked.user, identity, rules);
    }
    const email = verifiedEmail(identity);
    const existing = await this.users.getByEmail(email);
    if (existing) {
      this.authentication.assertActive(existing);
      const alreadyLinked = () =>
        unauthorized(`The Longbox account for ${email} is already linked to another ${identity.providerName} identity`);
      if (await this.identities.findForUser(existing.id, identity.provider)) throw alreadyLinked();
      if (!(await this.identities.link(newIdentity(existing.id, identity)))) throw alreadyLinked();
      return this.applyGroups(existing, identity, rules);
    }
    if (!rules.autoCreateUsers) {
      throw unauthorized(
        `No Longbox account uses ${email}, and ${identity.providerName} sign-ins do not create accounts: ask an admin for one`,
      );
    }
    const grants = rules.groups ? resolveGroupGrants(identity.groups, rules.groups, rules.defaultRole) : undefined;
    const user = await this.accounts.createUser({
      username: await this.freeUsername(identity.usernameHints),
      email,
      // The account signs in through its provider, until an admin sets a password.
      password: null,
      role: rules.groups?.rules.length && grants ? grants.role : rules.defaultRole,
      emailVerified: true,
      // The libraries its groups grant are written with the account: it never exists seeing every library.
      access: grants?.libraries === undefined ? undefined : { groupLibraries: grants.libraries },
    });
    if (!(await this.identities.link(newIdentity(user.id, identity)))) {
      // The same identity signed in twice at once and the other sign-in linked it first.
      await this.users.delete(user.id);
      throw unauthorized('This identity was linked to an account by another sign-in a moment ago: sign in again');
    }
    return user;
  }

  async list(userId: string): Promise<OidcIdentityRecord[]> {
    return this.identities.listForUser(userId);
  }

  /**
   * Forgets a link. The provider's next sign-in links again only by the rules above (a verified address of
   * an account without an identity of that provider): to keep a person out, an admin disables the account.
   */
  async unlink(userId: string, identityId: string): Promise<void> {
    if (!(await this.identities.unlink(userId, identityId))) throw notFound('Linked identity');
  }

  /**
   * With a group mapping, the provider decides the role at every sign-in: the highest role a group maps to,
   * else the default. The last active admin is never demoted this way (the update refuses, the role stays).
   */
  private async applyGroups(user: UserRecord, identity: ExternalIdentity, rules: AccountRules): Promise<UserRecord> {
    if (!rules.groups || rules.groups.rules.length === 0) return user;
    await this.applyGroupLibraries(user, identity, rules);
    const { role } = resolveGroupGrants(identity.groups, rules.groups, rules.defaultRole);
    if (role === user.role) return user;
    const updated = await this.users.update(
      user.id,
      { role, authVersion: user.authVersion + 1, updatedAt: nowIso() },
      { keepAnAdmin: user.role === 'admin' },
    );
    return updated ?? user;
  }

  /**
   * With library rules in the mapping, the provider decides the libraries at every sign-in, as it decides
   * the role: exactly those the person's groups map to (none when no group matches; admins see every
   * library whatever is stored). Without library rules, library access stays as an admin set it.
   */
  private async applyGroupLibraries(user: UserRecord, identity: ExternalIdentity, rules: AccountRules): Promise<void> {
    if (!rules.groups) return;
    const { libraries } = resolveGroupGrants(identity.groups, rules.groups, rules.defaultRole);
    if (libraries === undefined) return;
    await this.access.setLibrariesFromGroups(user.id, libraries, nowIso());
  }

  private async recordSignIn(record: OidcIdentityRecord, identity: ExternalIdentity): Promise<void> {
    const changed = record.email !== identity.email || !sameList(record.groups, identity.groups);
    const recent = record.lastLoginAt && Date.now() - Date.parse(record.lastLoginAt) < SIGN_IN_RECORD_INTERVAL_MS;
    if (changed || !recent) {
      await this.identities.recordSignIn(record.id, { email: identity.email, groups: identity.groups, at: nowIso() });
    }
  }

  /** The first free username from the provider's hints (`jane.doe`, then `jane.doe-2`…), else a random one. */
  private async freeUsername(hints: readonly string[]): Promise<string> {
    const bases = [...new Set(hints.map(usernameFrom).filter((name): name is string => name !== null))];
    for (const base of bases) {
      for (let n = 1; n <= 20; n++) {
        const candidate = n === 1 ? base : `${base.slice(0, 60)}-${n}`;
        if (!(await this.users.getByUsername(candidate))) return candidate;
      }
    }
    return `user-${randomToken()
      .slice(0, 10)
      .replace(/[^A-Za-z0-9]/g, 'x')}`;
  }
}

function verifiedEmail(identity: ExternalIdentity): string {
  if (!identity.email) {
    throw unauthorized(
      `${identity.providerName} sent no e-mail address: Longbox needs one to find or create your account`,
    );
  }
  if (!identity.emailVerified) {
    throw unauthorized(
      `${identity.providerName} has not verified the e-mail address ${identity.email}: Longbox links and creates accounts only for verified addresses`,
    );
  }
  return identity.email;
}

function newIdentity(userId: string, identity: ExternalIdentity) {
  const now = nowIso();
  return {
    id: newId(),
    userId,
    provider: identity.provider,
    subject: identity.subject,
    email: identity.email,
    groups: identity.groups,
    createdAt: now,
    lastLoginAt: now,
  };
}

/** A provider's name for someone as a Longbox username (letters, digits, dot, dash, underscore), or null. */
function usernameFrom(hint: string): string | null {
  const name = hint
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .replace(/\s+/g, '.')
    .replace(/[^A-Za-z0-9._-]/g, '')
    .slice(0, 64);
  return USERNAME.test(name) && name.toLowerCase() !== 'api' ? name : null;
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
