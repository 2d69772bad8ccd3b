/**
 * Administration of what a user may see (docs/DECISIONS.md §Organise and share, "Administration"): their
 * libraries, age restriction and sharing-label grants, changed through `/api/v1` and `/komga` alike (one
 * model underneath). Every change is checked whole before anything is written: unknown library or label
 * ids are a 400 naming them, and an actor whose own access is limited may only give access inside theirs
 * (auth/access-limits.ts), else 403. The new access applies from the user's next request: it is read with
 * the credentials on every request.
 */
import { accessOf, type UserGrants } from '../auth/access';
import { beyondAccess } from '../auth/access-limits';
import type { Principal } from '../auth/principal';
import { AppError, badRequest } from '../lib/errors';
import { nowIso } from '../lib/ids';
import type { SharingLabelsRepository } from '../repositories/sharing-labels.repository';
import type { AccessChange, UserAccessRecord, UserAccessRepository } from '../repositories/user-access.repository';
import type { UserRecord } from '../repositories/users.repository';
import { viewerOf } from '../repositories/visibility';
import type { LibrariesService } from './libraries.service';

export type { AccessChange, UserAccessRecord };

/** Where a wrong id was found in the request, for the 400's details (`sharedLibraryIds`, `labelsAllow`…). */
export interface ChangePaths {
  libraries: string;
  labels: (index: number) => string;
}

const API_PATHS: ChangePaths = { libraries: 'sharedLibraryIds', labels: (i) => `sharingTags.${i}.sharingTagId` };

export class UserAccessService {
  constructor(
    private readonly access: UserAccessRepository,
    private readonly labels: SharingLabelsRepository,
    private readonly libraries: LibrariesService,
  ) {}

  /** The stored access of each user (an admin's included: it applies if they stop being one). */
  async forUsers(userIds: readonly string[]): Promise<Map<string, UserAccessRecord>> {
    return this.access.forUsers(userIds);
  }

  async of(userId: string): Promise<UserAccessRecord> {
    return (await this.access.forUsers([userId])).get(userId) ?? NO_RESTRICTION;
  }

  /**
   * Checks a change of `user`'s access by `actor` without writing: every id known (to the actor), and the
   * resulting access inside the actor's. `fresh`: the user is being created (shared with all by default).
   */
  async check(actor: Principal, user: UserRecord | null, change: AccessChange, paths: ChangePaths = API_PATHS) {
    if (user !== null && isEmpty(change)) return;
    const requested = change.libraries && !change.libraries.all ? change.libraries.ids : [];
    const unknownLibraries = await this.libraries.unknownIds(viewerOf(actor), requested);
    const labelIds = change.labels?.map((g) => g.labelId) ?? [];
    const known = await this.labels.existingIds(labelIds);
    const details = [
      ...unknownLibraries.map((id) => ({
        path: `${paths.libraries}.${requested.indexOf(id)}`,
        message: `no library ${id}`,
      })),
      ...labelIds.flatMap((id, i) =>
        known.has(id) ? [] : [{ path: paths.labels(i), message: `no sharing tag ${id}` }],
      ),
    ];
    if (details.length > 0) {
      const unknownLabels = labelIds.filter((id) => !known.has(id));
      const named = [
        unknownLibraries.length > 0 ? `library ids: ${unknownLibraries.join(', ')}` : '',
        unknownLabels.length > 0 ? `sharing tag ids: ${unknownLabels.join(', ')}` : '',
      ].filter(Boolean);
      throw badRequest(`Unknown ${named.join('; unknown ')}`, details);
    }
    const current: UserGrants = user ? await this.access.grants(user.id) : { libraryIds: null, labels: [] };
    const age = change.ageRestriction !== undefined ? change.ageRestriction : user ? ageOf(user) : null;
    const target = accessOf(
      {
        role: user?.role ?? 'reader',
        customPermissions: user?.customPermissions ?? [],
        ageRestrictionAge: age?.age ?? null,
        ageRestrictionMode: age?.mode ?? null,
      },
      {
        libraryIds: change.libraries ? (change.libraries.all ? null : change.libraries.ids) : current.libraryIds,
        labels: change.labels ?? current.labels,
      },
    );
    const beyond = beyondAccess(actor.access, target);
    if (beyond !== null) {
      throw new AppError('Forbidden', `You cannot give access beyond your own: ${beyond}`);
    }
  }

  /** Checks, then applies the change in one batch. */
  async change(actor: Principal, user: UserRecord, change: AccessChange, paths?: ChangePaths): Promise<void> {
    if (isEmpty(change)) return;
    await this.check(actor, user, change, paths);
    const now = nowIso();
    await this.access.apply(user.id, change, { updatedAt: now }, now);
  }

  /** Applies a change already checked (a user just created). */
  async applyChecked(userId: string, change: AccessChange): Promise<void> {
    if (isEmpty(change)) return;
    const now = nowIso();
    await this.access.apply(userId, change, { updatedAt: now }, now);
  }

  /** Sets one label grant of a user (Codex-rs `PUT /users/{id}/sharing-tags`), keeping the others. */
  async grantLabel(actor: Principal, user: UserRecord, labelId: string, mode: 'allow' | 'deny') {
    const { labels } = await this.access.grants(user.id);
    const others = labels.filter((g) => g.labelId !== labelId);
    await this.change(
      actor,
      user,
      { labels: [...others, { labelId, mode }] },
      {
        libraries: 'sharedLibraryIds',
        labels: () => 'sharingTagId',
      },
    );
  }

  /** Takes one label grant away; false when the user held none of it. */
  async revokeLabel(actor: Principal, user: UserRecord, labelId: string): Promise<boolean> {
    const { labels } = await this.access.grants(user.id);
    const others = labels.filter((g) => g.labelId !== labelId);
    if (others.length === labels.length) return false;
    await this.change(actor, user, { labels: others });
    return true;
  }
}

const NO_RESTRICTION: UserAccessRecord = { sharedAllLibraries: true, libraryIds: [], ageRestriction: null, labels: [] };

const ageOf = (user: Pick<UserRecord, 'ageRestrictionAge' | 'ageRestrictionMode'>) =>
  user.ageRestrictionMode && user.ageRestrictionAge !== null
    ? { age: user.ageRestrictionAge, mode: user.ageRestrictionMode }
    : null;

const isEmpty = (change: AccessChange) =>
  change.libraries === undefined && change.ageRestriction === undefined && change.labels === undefined;
