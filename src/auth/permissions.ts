/**
 * The permission model (API.md §5, DECISIONS.md §Roles and permissions): every route declares the
 * permission it needs against this one module.
 */
import { z } from '@hono/zod-openapi';

export const PERMISSIONS = [
  'LibrariesRead',
  'LibrariesWrite',
  'LibrariesDelete',
  'SeriesRead',
  'SeriesWrite',
  'SeriesDelete',
  'BooksRead',
  'BooksWrite',
  'BooksDelete',
  'PagesRead',
  'UsersRead',
  'UsersWrite',
  'UsersDelete',
  'ApiKeysRead',
  'ApiKeysWrite',
  'ApiKeysDelete',
  'TasksRead',
  'TasksWrite',
  'SystemHealth',
  'SystemAdmin',
  'ProgressRead',
  'ProgressWrite',
  'CollectionsRead',
  'CollectionsWrite',
  'CollectionsDelete',
  'ReadListsRead',
  'ReadListsWrite',
  'ReadListsDelete',
] as const;

export const PermissionSchema = z.enum(PERMISSIONS).openapi('Permission');
export type Permission = z.infer<typeof PermissionSchema>;

export const ROLES = ['reader', 'maintainer', 'admin'] as const;
export const RoleSchema = z.enum(ROLES).openapi('Role');
export type Role = z.infer<typeof RoleSchema>;

const READER: readonly Permission[] = [
  'LibrariesRead',
  'SeriesRead',
  'BooksRead',
  'PagesRead',
  'ProgressRead',
  'ProgressWrite',
  'CollectionsRead',
  'ReadListsRead',
  'ApiKeysRead',
  'ApiKeysWrite',
  'ApiKeysDelete',
  'SystemHealth',
];
const MAINTAINER: readonly Permission[] = [
  ...READER,
  'LibrariesWrite',
  'SeriesWrite',
  'SeriesDelete',
  'BooksWrite',
  'BooksDelete',
  'TasksRead',
  'TasksWrite',
  'CollectionsWrite',
  'CollectionsDelete',
  'ReadListsWrite',
  'ReadListsDelete',
];

export const ROLE_PERMISSIONS: Record<Role, ReadonlySet<Permission>> = {
  reader: new Set(READER),
  maintainer: new Set(MAINTAINER),
  admin: new Set(PERMISSIONS),
};

/** What a user holds: role ∪ custom permissions. */
export function userPermissions(role: Role, custom: readonly string[]): Set<Permission> {
  const held = new Set(ROLE_PERMISSIONS[role]);
  for (const name of custom) if (isPermission(name)) held.add(name);
  return held;
}

/** Effective permissions of a request: (role ∪ custom) ∩ key permissions when an API key is used. */
export function effectivePermissions(
  role: Role,
  custom: readonly string[],
  keyPermissions?: readonly string[],
): Set<Permission> {
  const held = userPermissions(role, custom);
  if (!keyPermissions) return held;
  const key = new Set(keyPermissions);
  return new Set([...held].filter((p) => key.has(p)));
}

export function isPermission(name: string): name is Permission {
  return (PERMISSIONS as readonly string[]).includes(name);
}

/**
 * A requirement a route declares: one permission, or any one of several
 * (progress reads accept ProgressRead or BooksRead). SystemAdmin passes every check.
 */
export type Requirement = Permission | readonly Permission[];

/** DECISIONS.md §Roles: reading one's own progress needs ProgressRead or BooksRead; moving it ProgressWrite or BooksWrite. */
export const PROGRESS_READ = ['ProgressRead', 'BooksRead'] as const satisfies Requirement;
export const PROGRESS_WRITE = ['ProgressWrite', 'BooksWrite'] as const satisfies Requirement;
/**
 * Reading collections needs CollectionsRead or SeriesRead, read lists ReadListsRead or BooksRead: their members
 * are series and books anyway, and reader-app keys made before lists existed (with SeriesRead and BooksRead)
 * keep working in Mihon and Komelia, which load collections and read lists on every series and book page.
 */
export const COLLECTIONS_READ = ['CollectionsRead', 'SeriesRead'] as const satisfies Requirement;
export const READ_LISTS_READ = ['ReadListsRead', 'BooksRead'] as const satisfies Requirement;

export function satisfies(held: ReadonlySet<Permission>, need: Requirement): boolean {
  if (held.has('SystemAdmin')) return true;
  const anyOf = typeof need === 'string' ? [need] : need;
  return anyOf.some((p) => held.has(p));
}

export function describeRequirement(need: Requirement): string {
  return typeof need === 'string' ? need : need.join(' or ');
}
