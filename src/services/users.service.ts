/**
 * User administration (API.md §4 Users, admin only). Changes that alter what a user may do bump
 * `authVersion`, so cached HTTP Basic checks stop counting at once (DECISIONS.md §Auth); a new password
 * or a deactivation also ends the user's sessions. The server always keeps one active admin.
 */
import { hashPassword } from '../auth/password';
import { type Permission, type Role, satisfies, userPermissions } from '../auth/permissions';
import type { Principal } from '../auth/principal';
import { AppError, conflict, notFound } from '../lib/errors';
import { nowIso } from '../lib/ids';
import type { PageRequest } from '../lib/pagination';
import type { SessionsRepository } from '../repositories/sessions.repository';
import type { NewUser, UserRecord, UsersRepository } from '../repositories/users.repository';
import type { AccountsService } from './accounts.service';

export interface CreateUserInput {
  username: string;
  email: string;
  password: string;
  role: Role;
  customPermissions: Permission[];
  isActive: boolean;
}

export type UpdateUserInput = Partial<CreateUserInput>;

export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly sessions: SessionsRepository,
    private readonly accounts: AccountsService,
  ) {}

  async list(page: PageRequest): Promise<{ items: UserRecord[]; total: number }> {
    const [items, total] = await Promise.all([this.users.list(page.offset, page.pageSize), this.users.count()]);
    return { items, total };
  }

  async get(id: string): Promise<UserRecord> {
    const user = await this.users.getById(id);
    if (!user) throw notFound('User');
    return user;
  }

  async create(actor: Principal, input: CreateUserInput): Promise<UserRecord> {
    assertCanGrant(actor, input.role, input.customPermissions);
    // An admin vouches for the address; such accounts never go through e-mail verification.
    return this.accounts.createUser({ ...input, emailVerified: true });
  }

  async update(actor: Principal, id: string, input: UpdateUserInput): Promise<UserRecord> {
    const user = await this.get(id);
    assertCanGrant(actor, user.role, user.customPermissions);
    if (Object.keys(input).length === 0) return user;
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

    const updated = await this.saveUnique(() => this.users.update(user.id, changes, { keepAnAdmin: takesAdminAway }));
    if (!updated) throw await this.refusal(user.id);
    if (input.password !== undefined || (user.isActive && !isActive)) {
      // An admin changing their own password keeps the session they are using.
      const keep = actor.user.id === user.id ? actor.sessionId : undefined;
      await this.sessions.deleteForUser(user.id, keep);
    }
    // A pending e-mail verification would otherwise re-activate an account an admin just disabled.
    if (input.isActive === false) await this.users.deleteVerificationTokens(user.id);
    return updated;
  }

  /** Removes the user with their sessions, API keys, progress and preferences. */
  async delete(actor: Principal, id: string): Promise<void> {
    const user = await this.get(id);
    assertCanGrant(actor, user.role, user.customPermissions);
    if (!(await this.users.delete(user.id))) throw await this.refusal(user.id);
  }

  /**
   * Why a write guarded by the last-admin condition (users.repository) changed nothing: the user went
   * away meanwhile, or they are the last active admin. The condition is checked inside the write only,
   * so two concurrent demotions cannot both pass a check made before it.
   */
  private async refusal(id: string): Promise<AppError> {
    return (await this.users.getById(id)) ? lastAdmin() : notFound('User');
  }

  private async saveUnique<T>(save: () => Promise<T>): Promise<T> {
    try {
      return await save();
    } catch (error) {
      // assertUnique ran first; a concurrent change can still lose the race at the unique index.
      if (String(error).includes('UNIQUE')) throw conflict('Username or e-mail address is already taken');
      throw error;
    }
  }
}

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
