/**
 * A write that tests the caller's credential itself (docs/ARCHITECTURE.md, "The credential check beside the
 * request"): one SQL condition, true only while the session or API key is live and the user, their grants
 * and the key are exactly what the caller's principal says — read in the same transaction as the write it
 * guards. A write made as a principal remembered from an earlier request therefore writes nothing once the
 * key is revoked, the session ended, the account disabled or its access changed, and the statement's changed
 * rows tell the caller so.
 *
 * Every value is compared as stored, so any difference — even one that would not change this write's
 * outcome — fails the guard: the write is then made again as the checked caller, never wrongly.
 */
import { type SQL, sql } from 'drizzle-orm';

/** What a caller's principal says about them (auth/principal.ts `Principal` has this shape). */
export interface GuardedCaller {
  user: {
    id: string;
    username: string;
    email: string;
    role: string;
    customPermissions: readonly string[];
    isActive: boolean;
    authVersion: number;
    sharedAllLibraries: boolean;
    ageRestrictionAge: number | null;
    ageRestrictionMode: string | null;
  };
  grants: {
    libraryIds: readonly string[] | null;
    labels: ReadonlyArray<{ labelId: string; mode: string }>;
  };
  sessionId?: string;
  apiKey?: {
    id: string;
    permissions: readonly string[];
    expiresAt: string | null;
    libraryIds: readonly string[] | null;
  };
}

/** The one-column rows `rows` (`SELECT … AS value`) are exactly the set `values`. */
function sameSet(rows: SQL, values: readonly string[]): SQL {
  const distinct = [...new Set(values)];
  return sql`(SELECT count(*) FROM (${rows})) = ${distinct.length}
    AND NOT EXISTS (SELECT 1 FROM (${rows}) AS held
      WHERE held.value NOT IN (SELECT value FROM json_each(${JSON.stringify(distinct)})))`;
}

/** The credential still grants what `caller` says, at `now` (ISO 8601). */
export function credentialStillGrants(caller: GuardedCaller, now: string): SQL {
  const { user, grants } = caller;
  const libraries = sql`SELECT granted.library_id AS value FROM user_library_access AS granted
    WHERE granted.user_id = ${user.id}`;
  const labels = sql`SELECT label.label_id || ' ' || label.mode AS value FROM user_sharing_labels AS label
    WHERE label.user_id = ${user.id}`;
  const conditions: SQL[] = [
    sql`EXISTS (SELECT 1 FROM users AS guard_user WHERE guard_user.id = ${user.id}
      AND guard_user.is_active = 1 AND guard_user.auth_version = ${user.authVersion}
      AND guard_user.username = ${user.username} AND guard_user.email = ${user.email}
      AND guard_user.role = ${user.role}
      AND json(guard_user.custom_permissions) = json(${JSON.stringify(user.customPermissions)})
      AND guard_user.shared_all_libraries = ${user.sharedAllLibraries ? 1 : 0}
      AND guard_user.age_restriction_age IS ${user.ageRestrictionAge}
      AND guard_user.age_restriction_mode IS ${user.ageRestrictionMode})`,
    sameSet(
      labels,
      grants.labels.map((g) => `${g.labelId} ${g.mode}`),
    ),
  ];
  if (!user.sharedAllLibraries) conditions.push(sameSet(libraries, grants.libraryIds ?? []));
  if (caller.sessionId !== undefined) {
    conditions.push(sql`EXISTS (SELECT 1 FROM sessions AS guard_session WHERE guard_session.id = ${caller.sessionId}
      AND guard_session.user_id = ${user.id} AND guard_session.expires_at > ${now})`);
  }
  const key = caller.apiKey;
  if (key) {
    conditions.push(sql`EXISTS (SELECT 1 FROM api_keys AS guard_key WHERE guard_key.id = ${key.id}
      AND guard_key.user_id = ${user.id}
      AND json(guard_key.permissions) = json(${JSON.stringify(key.permissions)})
      AND guard_key.expires_at IS ${key.expiresAt} AND (guard_key.expires_at IS NULL OR guard_key.expires_at > ${now})
      AND guard_key.all_libraries = ${key.libraryIds === null ? 1 : 0})`);
    if (key.libraryIds !== null) {
      const keyLibraries = sql`SELECT kept.library_id AS value FROM api_key_libraries AS kept
        WHERE kept.api_key_id = ${key.id}`;
      conditions.push(sameSet(keyLibraries, key.libraryIds));
    }
  }
  return sql`(${sql.join(conditions, sql` AND `)})`;
}
