import type { UserGrants } from '../auth/access';
import { userPermissions, type Permission } from '../auth/permissions';
import type { UserAccessRecord } from '../repositories/user-access.repository';
import type { UserRecord } from '../repositories/users.repository';
import type { UserDto } from '../schemas/user.schema';

/** A user with what they may see (services/user-access.service.ts). */
export interface UserWithAccess {
  user: UserRecord;
  access: UserAccessRecord;
}

/** ASCII letters folded, as SQLite's NOCASE compares (the order user administration lists labels in). */
const nocase = (name: string) => name.replace(/[A-Z]/g, (letter) => letter.toLowerCase());

/**
 * A user's access from the grants read with their credentials (`Principal.grants`), as user administration
 * shows it (`UserAccessRepository.forUsers`): what `/auth/me` answers without reading the grants again.
 */
export function accessFromGrants(user: UserRecord, grants: UserGrants): UserAccessRecord {
  const byName = (a: { name: string }, b: { name: string }) =>
    nocase(a.name) < nocase(b.name) ? -1 : nocase(a.name) > nocase(b.name) ? 1 : 0;
  return {
    sharedAllLibraries: user.sharedAllLibraries,
    libraryIds: user.sharedAllLibraries ? [] : [...(grants.libraryIds ?? [])].sort(),
    ageRestriction:
      user.ageRestrictionMode && user.ageRestrictionAge !== null
        ? { age: user.ageRestrictionAge, mode: user.ageRestrictionMode }
        : null,
    labels: grants.labels
      .map(({ labelId, name, mode, createdAt }) => ({ labelId, name: name ?? '', mode, createdAt: createdAt ?? '' }))
      .sort(byName),
  };
}

export function toUserDto({ user, access }: UserWithAccess): UserDto {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    role: user.role,
    permissions: [...userPermissions(user.role, user.customPermissions)].sort(),
    customPermissions: user.customPermissions as Permission[],
    isActive: user.isActive,
    emailVerified: user.emailVerified,
    lastLoginAt: user.lastLoginAt,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
    sharedAllLibraries: access.sharedAllLibraries,
    sharedLibraryIds: access.libraryIds,
    ageRestriction: access.ageRestriction && {
      age: access.ageRestriction.age,
      restriction: access.ageRestriction.mode,
    },
    sharingTags: access.labels.map((l) => ({ sharingTagId: l.labelId, name: l.name, accessMode: l.mode })),
  };
}

/** The user as a sign-in or registration answer names them. */
export const toLoginUser = (u: UserRecord) => ({ id: u.id, username: u.username, email: u.email, role: u.role });
