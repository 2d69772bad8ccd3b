/**
 * Komga's user administration (`/api/v2/users`, what Komelia's Settings → Users screen calls) over
 * Longbox's users and access (services/users.service.ts, user-access.service.ts): one model, so a change
 * made here shows in /api/v1 and the web app, and the reverse. Where Komga and Longbox differ:
 * - a Longbox account needs a username: a new Komga user gets the local part of its e-mail address
 *   (made unique);
 * - roles: ADMIN makes an admin; without it an admin becomes a reader and other roles stay. FILE_DOWNLOAD
 *   and PAGE_STREAMING are accepted and ignored (every Longbox role may download and stream pages); unknown
 *   names (Komelia sends USER) are ignored, as Komga ignores them;
 * - labels are free text: naming an unknown label creates it (on /api/v1 an unknown tag id is a 400);
 * - an unknown library id is a 400 naming it (Komga drops it silently), per docs/DECISIONS.md.
 */
import { z } from 'zod';
import type { Principal } from '../auth/principal';
import { AppError, badRequest, forbidden, notFound } from '../lib/errors';
import type { UserWithAccess } from '../mappers/user.mapper';
import { PasswordSchema, UsernameSchema } from '../schemas/user.schema';
import type { Services } from '../composition-root';
import {
  ACTIVITY_SORT_FIELDS,
  type ActivitySortField,
  type AuthenticationActivityRecord,
} from '../repositories/authentication-activity.repository';
import type { AccessInput, UpdateUserInput } from '../services/users.service';
import { komgaDate, toKomgaUser } from './komga.mappers';
import type { KomgaPaging } from './komga-paging';
import { springPage } from './komga-paging';
import { satisfies, userPermissions } from '../auth/permissions';

const AgeRestrictionUpdate = z.object({
  age: z.number().int().min(0).max(255),
  restriction: z.enum(['ALLOW_ONLY', 'EXCLUDE', 'NONE']),
});
const SharedLibrariesUpdate = z.object({ all: z.boolean(), libraryIds: z.array(z.string()).default([]) });
const Labels = z.array(z.string().max(100)).max(1000).nullable().optional();

/** Komga `UserUpdateDto`: every key optional; `ageRestriction: null` (or NONE) removes it, null labels empty them. */
export const KomgaUserUpdateSchema = z.object({
  roles: z.array(z.string()).optional(),
  sharedLibraries: SharedLibrariesUpdate.optional(),
  ageRestriction: AgeRestrictionUpdate.nullable().optional(),
  labelsAllow: Labels,
  labelsExclude: Labels,
});

/** Komga `UserCreationDto`. */
export const KomgaUserCreationSchema = KomgaUserUpdateSchema.extend({
  email: z.string().regex(/.+@.+\..+/, 'must be an e-mail address'),
  password: z.string(),
  sharedLibraries: SharedLibrariesUpdate.nullable().optional(),
});

type KomgaUserUpdate = z.infer<typeof KomgaUserUpdateSchema>;

/** Komga `PasswordUpdateDto` (the password's own rules are Longbox's, checked by the service). */
export const KomgaPasswordUpdateSchema = z.object({ password: z.string() });

/**
 * Komga's name for each way of signing in Longbox records (its LoginListener's): an HTTP Basic check is a
 * `UsernamePasswordAuthenticationToken` there, so `Password` like a login form's; the others keep their names.
 */
const KOMGA_SOURCES: Partial<Record<string, string>> = { Basic: 'Password' };

/** Komga `AuthenticationActivityDto`: every key present (komga-client decodes null ones, not missing ones). */
export function toKomgaActivity(row: AuthenticationActivityRecord) {
  return {
    userId: row.userId,
    email: row.email,
    apiKeyId: row.apiKeyId,
    apiKeyComment: row.apiKeyName,
    ip: row.ip,
    userAgent: row.userAgent,
    success: row.success,
    error: row.error,
    dateTime: komgaDate(row.dateTime),
    source: KOMGA_SOURCES[row.source] ?? row.source,
  };
}

/** Komga's default order of activity: newest first. */
const NEWEST_FIRST = [{ property: 'dateTime', direction: 'desc' as const }];
const isActivitySort = (property: string): property is ActivitySortField =>
  (ACTIVITY_SORT_FIELDS as string[]).includes(property);

const toKomga = ({ user, access }: UserWithAccess) =>
  toKomgaUser(user, userPermissions(user.role, user.customPermissions), access);

export class KomgaUsersService {
  constructor(private readonly services: Services) {}

  async list() {
    const users = [];
    // Komga answers every user at once; Longbox pages by 500.
    for (let page = 1; ; page++) {
      const { items, total } = await this.services.users.list({ page, pageSize: 500, offset: (page - 1) * 500 });
      users.push(...items);
      if (users.length >= total || items.length === 0) break;
    }
    return users.map(toKomga);
  }

  async create(actor: Principal, body: z.infer<typeof KomgaUserCreationSchema>) {
    const password = PasswordSchema.safeParse(body.password);
    if (!password.success) throw badRequest(`password: ${password.error.issues[0]?.message ?? 'invalid'}`);
    const access = await this.accessInput({ ...body, sharedLibraries: body.sharedLibraries ?? undefined }, null);
    try {
      const created = await this.services.users.create(actor, {
        username: await this.freeUsername(body.email),
        email: body.email,
        password: password.data,
        role: body.roles?.includes('ADMIN') ? 'admin' : 'reader',
        customPermissions: [],
        isActive: true,
        ...access,
      });
      return toKomga(created);
    } catch (error) {
      // Komga: 400 "A user with this email already exists".
      if (error instanceof AppError && error.kind === 'Conflict')
        throw badRequest('A user with this email already exists');
      throw error;
    }
  }

  /** Komga refuses an admin changing or deleting their own account here (403). */
  async update(actor: Principal, id: string, body: KomgaUserUpdate): Promise<void> {
    if (id === actor.user.id) throw forbidden('You cannot change your own account here');
    const current = await this.services.users.get(id);
    const input: UpdateUserInput = await this.accessInput(body, current);
    if (body.roles !== undefined) {
      if (body.roles.includes('ADMIN')) input.role = 'admin';
      else if (current.user.role === 'admin') input.role = 'reader';
    }
    await this.services.users.update(actor, id, input);
  }

  async delete(actor: Principal, id: string): Promise<void> {
    if (id === actor.user.id) throw forbidden('You cannot delete your own account');
    await this.services.users.delete(actor, id);
  }

  /**
   * Komga's `PATCH users/me/password` (`id` "me") and `PATCH users/{id}/password` (an admin, or the user
   * themself): the /api/v1 password changes underneath — one's own through the account service (other
   * sessions end), another user's through user administration (all their sessions end).
   */
  async changePassword(actor: Principal, id: string, body: z.infer<typeof KomgaPasswordUpdateSchema>) {
    const own = id === 'me' || id === actor.user.id;
    if (!own && !satisfies(actor.permissions, 'UsersWrite')) throw forbidden('Missing permission: UsersWrite');
    const password = PasswordSchema.safeParse(body.password);
    if (!password.success) {
      const message = password.error.issues[0]?.message ?? 'invalid';
      throw badRequest(`password: ${message}`, [{ path: 'password', message }]);
    }
    if (own) await this.services.accounts.setOwnPassword(actor, password.data);
    else await this.services.users.update(actor, id, { password: password.data });
  }

  /** A page of authentication activity (one user's, or everyone's), newest first unless sorted otherwise. */
  async activity(paging: KomgaPaging, userId?: string) {
    const sort = paging.sort.filter((s) => isActivitySort(s.property));
    const effective = sort.length > 0 ? sort : NEWEST_FIRST;
    const { rows, total } = await this.services.authenticationActivity.list({
      userId,
      sort: effective.map((s) => ({ field: s.property as ActivitySortField, direction: s.direction })),
      page: { offset: paging.request.offset, limit: paging.request.pageSize },
    });
    return springPage(rows.map(toKomgaActivity), total, { ...paging, sort: effective });
  }

  /** A user's latest activity (of one API key, when given): an admin's question, or the user's own; 404 when none. */
  async latestActivity(actor: Principal, id: string, apiKeyId: string | undefined) {
    if (id !== actor.user.id && !satisfies(actor.permissions, 'UsersRead')) {
      throw forbidden('Missing permission: UsersRead');
    }
    const user = await this.services.users.record(id);
    const latest = await this.services.authenticationActivity.latest(user.id, apiKeyId);
    if (!latest) throw notFound('Authentication activity');
    return toKomgaActivity(latest);
  }

  /** The access change a Komga body asks for; labels by name (created when unknown), excluded ones winning. */
  private async accessInput(body: KomgaUserUpdate, current: UserWithAccess | null): Promise<AccessInput> {
    const input: AccessInput = {};
    if (body.sharedLibraries) {
      input.sharedAllLibraries = body.sharedLibraries.all;
      if (!body.sharedLibraries.all) input.sharedLibraryIds = body.sharedLibraries.libraryIds;
    }
    if (body.ageRestriction !== undefined) {
      const r = body.ageRestriction;
      input.ageRestriction = r === null || r.restriction === 'NONE' ? null : { age: r.age, restriction: r.restriction };
    }
    if (body.labelsAllow !== undefined || body.labelsExclude !== undefined) {
      const held = (mode: 'allow' | 'deny') =>
        current?.access.labels.filter((l) => l.mode === mode).map((l) => l.name) ?? [];
      const exclude = body.labelsExclude === undefined ? held('deny') : (body.labelsExclude ?? []);
      const allow = body.labelsAllow === undefined ? held('allow') : (body.labelsAllow ?? []);
      const ids = await this.services.sharingTags.idsNamed([...exclude, ...allow]);
      const idOf = (name: string) => ids.get(name.trim().toLowerCase());
      const denied = new Set(exclude.map(idOf).filter((id): id is string => id !== undefined));
      const allowed = new Set(allow.map(idOf).filter((id): id is string => id !== undefined && !denied.has(id)));
      input.sharingTags = [
        ...[...denied].map((sharingTagId) => ({ sharingTagId, accessMode: 'deny' as const })),
        ...[...allowed].map((sharingTagId) => ({ sharingTagId, accessMode: 'allow' as const })),
      ];
    }
    if (input.sharedLibraryIds) {
      // Library ids arrive unchecked from Komga clients: a malformed one is unknown too.
      const malformed = input.sharedLibraryIds.filter((id) => !z.uuid().safeParse(id).success);
      if (malformed.length > 0) throw badRequest(`Unknown library ids: ${malformed.join(', ')}`);
    }
    return input;
  }

  /** The e-mail's local part as a username, suffixed until no account has it. */
  private async freeUsername(email: string): Promise<string> {
    const local = (email.split('@')[0] ?? '').replace(/[^A-Za-z0-9._-]/g, '').slice(0, 56);
    const base = UsernameSchema.safeParse(local).success ? local : `user${local}`.slice(0, 56).padEnd(4, '0');
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? base : `${base}-${n}`;
      if (!UsernameSchema.safeParse(candidate).success) continue;
      if (!(await this.services.repositories.users.getByUsername(candidate))) return candidate;
    }
  }
}
