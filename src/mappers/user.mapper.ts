import { userPermissions, type Permission } from '../auth/permissions';
import type { UserRecord } from '../repositories/users.repository';
import type { UserDto } from '../schemas/user.schema';

export function toUserDto(user: UserRecord): UserDto {
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
  };
}

/** The user as a sign-in or registration answer names them. */
export const toLoginUser = (u: UserRecord) => ({ id: u.id, username: u.username, email: u.email, role: u.role });
