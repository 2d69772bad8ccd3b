/**
 * User administration (API.md §4 Users, admin only). Changes that alter what a user may do bump
 * `authVersion`, so cached HTTP Basic checks stop counting at once (DECISIONS.md §Auth); a new password
 * or a deactivation also ends the user's sessions (and says so on their event streams: `session_expired`). The server always keeps one active admin.
 */
import { hashPassword } from '../auth/password';
import { type Permission, type Role, satisfies, userPermissions } from '../auth/permissions';
import type { Principal } from '../auth/principal';
import type { EventPublisher } from '../events/events';
import { AppError, conflict, isForeignKeyViolation, notFound, savedUnlessTaken } from '../lib/errors';
import { nowIso } from '../lib/ids';
import type { PageRequest } from '../lib/pagination';
import type { SessionsRepository } from '../repositories/sessions.repository';
import type { NewUser, UserRecord, UsersRepository } from '../repositories/users.repository';
import type { UserWithAccess } from '../mappers/user.mapper';
import { ACCOUNT_TAKEN, type AccountsService } from './accounts.service';
import type { AccessChange, UserAccessService } from './user-access.service';

/** What a user may see, as /api/v1 sets it (schemas/user.schema.ts); omitted parts stay as they are. */
export interface AccessInput {
  sharedAllLibraries?: boolean;
  sharedLibraryIds?: string[];
  ageRestriction?: { age: number; restriction: 'ALLOW_ONLY' | 'EXCLUDE' } | null;
  sharingTags?: Array<{ sharingTagId: string; accessMode: 'allow' | 'deny' }>;
}

export interface CreateUserInput extends AccessInput {
  username: string;
  email: string;
  password: string;
  role: Role;
  customPermissions: Permission[];
  isActive: boolean;
}

export type UpdateUserInput = Partial<CreateUserInput>;

/** The access change an /api/v1 body asks for: ids given alone mean "only these libraries". */
export function accessChangeOf(input: AccessInput): AccessChange {
  const change: AccessChange = {};
  if (input.sharedAllLibraries !== undefined || input.sharedLibraryIds !== undefined) {
    const all = input.sharedAllLibraries ?? false;
    change.libraries = { all, ids: all ? [] : (input.sharedLibraryIds ?? []) };
  }
  if (input.ageRestriction !== undefined) {
    change.ageRestriction = input.ageRestriction && {
      age: input.ageRestriction.age,
      mode: input.ageRestriction.restriction,
    };
  }
  if (input.sharingTags !== undefined) {
    change.labels = input.sharingTags.map((g) => ({ labelId: g.sharingTagId, mode: g.accessMode }));
  }
  return change;
}

const ACCESS_KEYS = ['sharedAllLibraries', 'sharedLibraryIds', 'ageRestriction', 'sharingTags'] as const;

export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: SessionsRepository,
    private readonly accounts: AccountsService,
    private readonly access: UserAccessService,
    private readonly events: EventPublisher,
  ) {}

  async list(page: PageRequest): Promise<{ items: UserWithAccess[]; total: number }> {
    const [users, total] = await Promise.all([this.users.list(page.offset, page.pageSize), this.users.count()]);
    return { items: await this.withAccess(users), total };
  }

  /** The users with their access, read in one round of queries. */
  async withAccess(users: UserRecord[]): Promise<UserWithAccess[]> {
    const access = await this.access.forUsers(users.map((u) => u.id));
    return users.map((user) => ({ user, access: access.get(user.id) ?? UNRESTRICTED }));
  }

  async get(id: string): Promise<UserWithAccess> {
    const [found] = await this.withAccess([await this.record(id)]);
    return found as UserWithAccess;
  }

  async record(id: string): Promise<UserRecord> {
    const user = await this.users.getById(id);
    if (!user) throw notFound('User');
    return user;
  }

  /**
   * Creates a user with the access asked for; an actor with limited access must give one inside theirs
   * (a new user otherwise sees everything), checked before the account exists.
   */
  async create(actor: Principal, input: CreateUserInput): Promise<UserWithAccess> {
    assertCanGrant(actor, input.role, input.customPermissions);
    const change = accessChangeOf(input);
    await this.access.check(actor, null, change);
    // An admin vouches for the address; such accounts never go through e-mail verification. The account and
    // its access are one write: the user never exists seeing every library when they should not.
    let user: UserRecord;
    try {
      user = await this.accounts.createUser({ ...input, emailVerified: true, access: { change } });
    } catch (error) {
      // A library or tag deleted since the check: the same 400 naming it as if it had been gone before.
      if (isForeignKeyViolation(error)) await this.access.check(actor, null, change);
      throw error;
    }
    return this.get(user.id);
  }

  async update(actor: Principal, id: string, input: UpdateUserInput): Promise<UserWithAccess> {
    const user = await this.record(id);
    assertCanGrant(actor, user.role, user.customPermissions);
    const change = accessChangeOf(input);
    const fields = Object.fromEntries(
      Object.entries(input).filter(([key]) => !(ACCESS_KEYS as readonly string[]).includes(key)),
    ) as Omit<UpdateUserInput, (typeof ACCESS_KEYS)[number]>;
    // The access is checked first: a refused grant changes nothing else either.
    await this.access.check(actor, user, change);
    const updated = Object.keys(fields).length === 0 ? user : await this.updateFields(actor, user, fields);
    await this.access.applyChecked(user.id, change);
    return this.get(updated.id);
  }

  private async updateFields(actor: Principal, user: UserRecord, input: UpdateUserInput): Promise<UserRecord> {
    const role = input.role ?? user.role;
    const customPermissions = input.customPermissions ?? user.customPermissions;
    const isActive = input.isActive ?? user.isActive;
    assertCanGrant(actor, role, customPermissions);
    const takesAdminAway = isActiveAdmin(user) && !(role === 'admin' && isActive);
    await this.accounts.assertUnique(input.username, input.email, user.id);

    // Cached Basic checks are keyed by username and password: a rename must retire them too.
    const accessChanged =
      input.password !== undefined ||
      (input.username !== undefined && input.username !== user.username) ||
      role !== user.role ||
      isActive !== user.isActive ||
      !sameSet(customPermissions, user.customPermissions);
    const changes: Partial<NewUser> = { updatedAt: nowIso() };
    if (input.username !== undefined) changes.username = input.username;
    if (input.email !== undefined) changes.email = input.email;
    if (input.password !== undefined) changes.passwordHash = await hashPassword(input.password);
    if (input.role !== undefined) changes.role = role;
    if (input.customPermissions !== undefined) changes.customPermissions = [...new Set(customPermissions)];
    if (input.isActive !== undefined) changes.isActive = isActive;
    if (accessChanged) changes.authVersion = user.authVersion + 1;

    const updated = await savedUnlessTaken(
      () => this.users.update(user.id, changes, { keepAnAdmin: takesAdminAway }),
      ACCOUNT_TAKEN,
    );
    if (!updated) throw await this.refusal(user.id);
    if (input.password !== undefined || (user.isActive && !isActive)) {
      // An admin changing their own password keeps the session they are using.
      const keep = actor.user.id === user.id ? actor.sessionId : undefined;
      await this.sessions.deleteForUser(user.id, keep);
      // Komga tells a user's streams when someone else ends their sessions, not when they change their own password.
      if (actor.user.id !== user.id) this.events.publish({ type: 'session_expired', user_id: user.id });
    }
    // A pending e-mail verification would otherwise re-activate an account an admin just disabled.
    if (input.isActive === false) await this.users.deleteVerificationTokens(user.id);
    return updated;
  }

  /** A user's sharing-tag grants (UsersRead). */
  async sharingTags(id: string) {
    const user = await this.record(id);
    return (await this.access.of(user.id)).labels;
  }

  /** Grants a user one sharing tag, allowed or denied, keeping their other grants; answers the grant. */
  async grantSharingTag(actor: Principal, id: string, tagId: string, mode: 'allow' | 'deny') {
    const user = await this.record(id);
    assertCanGrant(actor, user.role, user.customPermissions);
    await this.access.grantLabel(actor, user, tagId, mode);
    const grant = (await this.access.of(user.id)).labels.find((g) => g.labelId === tagId);
    if (!grant) throw notFound('Sharing tag');
    return grant;
  }

  /** Takes a sharing-tag grant away; 404 when the user held none of that tag. */
  async revokeSharingTag(actor: Principal, id: string, tagId: string): Promise<void> {
    const user = await this.record(id);
    assertCanGrant(actor, user.role, user.customPermissions);
    if (!(await this.access.revokeLabel(actor, user, tagId))) throw notFound('Sharing tag grant');
  }

  /** Removes the user with their sessions, API keys, progress and preferences. */
  async delete(actor: Principal, id: string): Promise<void> {
    const user = await this.record(id);
    assertCanGrant(actor, user.role, user.customPermissions);
    if (!(await this.users.delete(user.id))) throw await this.refusal(user.id);
    this.events.publish({ type: 'session_expired', user_id: user.id });
  }

  /**
   * Why a write guarded by the last-admin condition (users.repository) changed nothing: the user went
   * away meanwhile, or they are the last active admin. The condition is checked inside the write only,
   * so two concurrent demotions cannot both pass a check made before it.
   */
  private async refusal(id: string): Promise<AppError> {
    return (await this.users.getById(id)) ? lastAdmin() : notFound('User');
  }
}

const UNRESTRICTED = { sharedAllLibraries: true, libraryIds: [], ageRestriction: null, labels: [] };

const isActiveAdmin = (user: UserRecord) => user.role === 'admin' && user.isActive;

const lastAdmin = () => conflict('The server must keep at least one active admin: this is the last one');

const sameSet = (a: readonly string[], b: readonly string[]) =>
  new Set(a).size === new Set(b).size && a.every((p) => b.includes(p));

/**
 * Nobody hands out power they lack: an actor may create, change or delete only accounts whose
 * permissions (role ∪ custom) they hold themselves. Admins hold everything.
 */
function assertCanGrant(actor: Principal, role: Role, custom: readonly string[]): void {
  const missing = [...userPermissions(role, custom)].filter((p) => !satisfies(actor.permissions, p));
  if (missing.length > 0) {
    throw new AppError(
      'Forbidden',
      `You cannot manage an account holding permissions you lack: ${missing.join(', ')}`,
      {
        details: missing.map((p) => ({ path: 'permissions', message: `${p} is not held by you` })),
      },
    );
  }
}
