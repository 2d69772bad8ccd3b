/**
 * What a provider's groups claim grants in Longbox (docs/DECISIONS.md §Single sign-on: groups). A mapping is a list of
 * `group=target` rules; a target is what membership of that group grants: a role (`role:admin`) or a
 * library (`library:<id or name>`, `library:*` for every library). Both are applied at every sign-in:
 * the highest role matched, and — when the mapping has any library rule — exactly the libraries matched.
 */
import { ROLES, type Role } from './permissions';

export type MappingTarget = { kind: 'role'; role: Role } | { kind: 'library'; library: string };

/** `library:*`: every library, present and future. */
export const EVERY_LIBRARY = '*';

export interface MappingRule {
  group: string;
  target: MappingTarget;
}

export interface GroupMapping {
  /** The claim holding the groups (`groups` by default; Keycloak, Authentik, Authelia and Pocket ID use it). */
  claim: string;
  rules: MappingRule[];
}

/** What a sign-in's groups grant: applied to the account at every sign-in when the mapping has rules. */
export interface GroupGrants {
  role: Role;
  /**
   * The libraries (ids or names, as the rules name them) the groups grant: null for every library,
   * undefined when the mapping has no library rule (library access is then managed in Longbox).
   */
  libraries?: string[] | null;
  /** The groups that matched a rule, for the record. */
  matched: string[];
}

const ROLE_RANK: Record<Role, number> = { reader: 0, maintainer: 1, admin: 2 };

/**
 * Parses `longbox-admins=role:admin, longbox-editors=role:maintainer`. Group names are compared exactly
 * (case matters, as at the providers); a group may appear in several rules.
 */
export function parseGroupMapping(text: string | undefined, claim: string): GroupMapping {
  const rules: MappingRule[] = [];
  for (const entry of (text ?? '').split(',')) {
    const trimmed = entry.trim();
    if (!trimmed) continue;
    const equals = trimmed.lastIndexOf('=');
    if (equals <= 0) throw new Error(`"${trimmed}" is not group=target`);
    const group = trimmed.slice(0, equals).trim();
    rules.push({ group, target: parseTarget(trimmed.slice(equals + 1).trim()) });
  }
  return { claim, rules };
}

function parseTarget(text: string): MappingTarget {
  const colon = text.indexOf(':');
  const kind = text.slice(0, colon).trim();
  const value = text.slice(colon + 1).trim();
  if (colon > 0 && kind === 'role' && ROLES.includes(value as Role)) return { kind: 'role', role: value as Role };
  if (colon > 0 && kind === 'library' && value !== '') return { kind: 'library', library: value };
  throw new Error(
    `"${text}" is not a mapping target (role:reader, role:maintainer, role:admin, library:<id or name> or library:*)`,
  );
}

/** The target as the configuration writes it. */
export const describeTarget = (target: MappingTarget) =>
  target.kind === 'role' ? `role:${target.role}` : `library:${target.library}`;

/** The highest role any of the groups maps to, or the default role when none matches. */
export function resolveGroupGrants(groups: readonly string[], mapping: GroupMapping, defaultRole: Role): GroupGrants {
  const member = new Set(groups);
  const matchedRules = mapping.rules.filter((rule) => member.has(rule.group));
  let role: Role | undefined;
  for (const { target } of matchedRules) {
    if (target.kind === 'role' && (role === undefined || ROLE_RANK[target.role] > ROLE_RANK[role])) role = target.role;
  }
  const grants: GroupGrants = {
    role: role ?? defaultRole,
    matched: [...new Set(matchedRules.map((rule) => rule.group))],
  };
  if (mapping.rules.some((rule) => rule.target.kind === 'library')) {
    const libraries = matchedRules.flatMap(({ target }) => (target.kind === 'library' ? [target.library] : []));
    grants.libraries = libraries.includes(EVERY_LIBRARY) ? null : [...new Set(libraries)];
  }
  return grants;
}

/** A groups claim as providers send it: an array of names, or one string of names (some send a single group). */
export function groupsFromClaim(value: unknown): string[] {
  if (Array.isArray(value)) return value.filter((item): item is string => typeof item === 'string');
  if (typeof value === 'string' && value.trim()) return value.split(/[\s,]+/).filter(Boolean);
  return [];
}
