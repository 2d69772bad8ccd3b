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
