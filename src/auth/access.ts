/**
 * What a signed-in caller may see (docs/DECISIONS.md §Organise and share), worked out on every request from
 * what was read with the credentials: the user's libraries, age restriction and label grants, and the
 * libraries of the API key used. Admins see every library and have no content restriction; a key narrows
 * its owner's libraries, never widens them (the intersection is taken here, so a library taken from the
 * owner is gone from their keys at once).
 */
import type { UserRecord } from '../repositories/users.repository';
import type { ContentRestrictions, ViewerAccess } from '../repositories/visibility';
import { userPermissions } from './permissions';

/**
 * A user's grants beside their row: libraries (null: every library) and label grants (as read with the
 * credentials, with the label's name and when it was granted).
 */
export interface UserGrants {
  libraryIds: readonly string[] | null;
  labels: ReadonlyArray<{ labelId: string; mode: 'allow' | 'deny'; name?: string; createdAt?: string }>;
}

/** The user holds SystemAdmin (their role or a custom permission): nothing in the catalog is hidden from them. */
export const isAdmin = (user: Pick<UserRecord, 'role' | 'customPermissions'>) =>
  userPermissions(user.role, user.customPermissions).has('SystemAdmin');

/** The user's content restrictions, null when there are none. */
export function contentRestrictions(
  user: Pick<UserRecord, 'ageRestrictionAge' | 'ageRestrictionMode'>,
  grants: Pick<UserGrants, 'labels'>,
): ContentRestrictions | null {
  const deny = grants.labels.filter((g) => g.mode === 'deny').map((g) => g.labelId);
  // Komga: the allowed labels minus the excluded ones.
  const allow = grants.labels.filter((g) => g.mode === 'allow' && !deny.includes(g.labelId)).map((g) => g.labelId);
  const age =
    user.ageRestrictionMode && user.ageRestrictionAge !== null
      ? { age: user.ageRestrictionAge, mode: user.ageRestrictionMode }
      : null;
  if (age === null && allow.length === 0 && deny.length === 0) return null;
  return { age, allowLabels: allow, denyLabels: deny };
}

/**
 * The caller's access: the user's (everything for an admin), within the key's libraries when the request
 * used a narrowed key (`keyLibraries` null: the key reaches all its owner's libraries).
 */
export function accessOf(
  user: Pick<UserRecord, 'role' | 'customPermissions' | 'ageRestrictionAge' | 'ageRestrictionMode'>,
  grants: UserGrants,
  keyLibraries: readonly string[] | null = null,
): ViewerAccess {
  const admin = isAdmin(user);
  const own = admin ? null : grants.libraryIds;
  const libraries =
    own === null ? keyLibraries : keyLibraries === null ? own : own.filter((id) => keyLibraries.includes(id));
  return { libraries: libraries && [...libraries], content: admin ? null : contentRestrictions(user, grants) };
}
