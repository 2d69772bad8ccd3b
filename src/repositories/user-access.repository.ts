/**
 * A user's access (docs/DECISIONS.md §Organise and share): shared-with-all or a set of libraries
 * (user_library_access), an age restriction (columns of the user row) and label grants
 * (user_sharing_labels). The grants are read with the credentials on every request: the columns below
 * join the statements that check a session, an API key or Basic credentials, so they cost no round trip.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Database } from '../db/client';
import { sharingLabels, userLibraryAccess, userSharingLabels, users } from '../db/schema';

/** A JSON array of ids, as json_group_array returns it. */
function idList(value: unknown): string[] {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
}

/** A label grant as read with the credentials: the label, the mode, and the label's name and grant date. */
export interface LabelGrant {
  labelId: string;
  mode: 'allow' | 'deny';
  name: string;
  createdAt: string;
}

function labelGrants(value: unknown): LabelGrant[] {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((row) =>
    Array.isArray(row) && typeof row[0] === 'string' && (row[1] === 'allow' || row[1] === 'deny')
      ? [{ labelId: row[0], mode: row[1] as 'allow' | 'deny', name: String(row[2]), createdAt: String(row[3]) }]
      : [],
  );
}

/** Named in full: drizzle leaves a one-table select's columns unqualified, which subqueries would misread. */
const USER_ID = sql.raw('"users"."id"');

/**
 * The user's grants as columns of any statement reading `users`: their libraries (null when shared with
 * all, without reading a row) and their label grants (an index range of the grants' primary key), with the
 * labels' names, so that what the caller is shown of their own access (`/auth/me`) needs no second read.
 */
export const userGrantColumns = {
  grantedLibraries: sql<string[] | null>`CASE WHEN "users"."shared_all_libraries" THEN NULL ELSE
    (SELECT json_group_array(granted.library_id) FROM user_library_access AS granted WHERE granted.user_id = ${USER_ID}) END`.mapWith(
    idList,
  ),
  grantedLabels: sql<LabelGrant[]>`(SELECT
    json_group_array(json_array(grant_row.label_id, grant_row.mode, granted_label.name, grant_row.created_at))
    FROM user_sharing_labels AS grant_row JOIN sharing_labels AS granted_label ON granted_label.id = grant_row.label_id
    WHERE grant_row.user_id = ${USER_ID})`.mapWith(labelGrants),
};

/** The libraries of the API key read with it: null when it reaches all its owner's libraries. */
export const keyLibrariesColumn = sql<string[] | null>`CASE WHEN "api_keys"."all_libraries" THEN NULL ELSE
  (SELECT json_group_array(k.library_id) FROM api_key_libraries AS k WHERE k.api_key_id = "api_keys"."id") END`.mapWith(
  idList,
);

export interface GrantedColumns {
  grantedLibraries: string[] | null;
  grantedLabels: LabelGrant[];
}

/** The grants of a row read with `userGrantColumns`. */
export const grantsOf = (row: GrantedColumns) => ({ libraryIds: row.grantedLibraries, labels: row.grantedLabels });

/** A user's access as the API shows it: library ids, age restriction and label grants with their names. */
export interface UserAccessRecord {
  sharedAllLibraries: boolean;
  libraryIds: string[];
  ageRestriction: { age: number; mode: 'ALLOW_ONLY' | 'EXCLUDE' } | null;
  labels: Array<{ labelId: string; name: string; mode: 'allow' | 'deny'; createdAt: string }>;
}

/** What an access change sets; absent parts stay as they are. */
export interface AccessChange {
  libraries?: { all: boolean; ids: readonly string[] };
  ageRestriction?: { age: number; mode: 'ALLOW_ONLY' | 'EXCLUDE' } | null;
  /** Replaces every label grant of the user. */
  labels?: ReadonlyArray<{ labelId: string; mode: 'allow' | 'deny' }>;
}

export class UserAccessRepository {
  constructor(private readonly db: Database) {}

  /** The grants of one user (Cloudflare Access sign-ins, which read the user row elsewhere). */
  async grants(userId: string) {
    const row = await this.db.select(userGrantColumns).from(users).where(eq(users.id, userId)).get();
    return row ? grantsOf(row) : { libraryIds: null, labels: [] };
  }

  /** The access of each of these users, by user id. */
  async forUsers(userIds: readonly string[]): Promise<Map<string, UserAccessRecord>> {
    const result = new Map<string, UserAccessRecord>();
    if (userIds.length === 0) return result;
    const ids = [...userIds];
    const [rows, libraries, labels] = await Promise.all([
      this.db
        .select({
          id: users.id,
          sharedAll: users.sharedAllLibraries,
          age: users.ageRestrictionAge,
          mode: users.ageRestrictionMode,
        })
        .from(users)
        .where(inArray(users.id, ids)),
      this.db
        .select({ userId: userLibraryAccess.userId, libraryId: userLibraryAccess.libraryId })
        .from(userLibraryAccess)
        .where(inArray(userLibraryAccess.userId, ids)),
      this.db
        .select({
          userId: userSharingLabels.userId,
          labelId: userSharingLabels.labelId,
          mode: userSharingLabels.mode,
          createdAt: userSharingLabels.createdAt,
          name: sharingLabels.name,
        })
        .from(userSharingLabels)
        .innerJoin(sharingLabels, eq(sharingLabels.id, userSharingLabels.labelId))
        .where(inArray(userSharingLabels.userId, ids))
        .orderBy(sql`${sharingLabels.name} COLLATE NOCASE`),
    ]);
    for (const row of rows) {
      result.set(row.id, {
        sharedAllLibraries: row.sharedAll,
        libraryIds: row.sharedAll
          ? []
          : libraries
              .filter((l) => l.userId === row.id)
              .map((l) => l.libraryId)
              .sort(),
        ageRestriction: row.mode && row.age !== null ? { age: row.age, mode: row.mode } : null,
        labels: labels
          .filter((l) => l.userId === row.id)
          .map(({ labelId, name, mode, createdAt }) => ({ labelId, name, mode, createdAt })),
      });
    }
    return result;
  }

  /**
   * Applies an access change in one batch, together with `userChanges` on the user row (the auth version
   * bump that retires cached Basic checks). Nothing changes when the user is gone.
   */
  async apply(
    userId: string,
    change: AccessChange,
    userChanges: Partial<typeof users.$inferInsert>,
    now: string,
  ): Promise<void> {
    const { columns, statements } = accessWrites(this.db, userId, { change }, now);
    await this.db.batch([
      this.db
        .update(users)
        .set({ ...userChanges, ...columns })
        .where(eq(users.id, userId)),
      ...statements,
    ]);
  }

  /**
   * Sets a user's libraries to those a sign-in's groups grant (single sign-on: auth/group-mapping.ts), in one
   * batch: every library (null), or the libraries with these ids or names (names ignoring case); a name or
   * id no library has grants nothing. The auth version is left alone: access is read on every request.
   */
  async setLibrariesFromGroups(userId: string, libraries: readonly string[] | null, now: string): Promise<void> {
    const { columns, statements } = accessWrites(this.db, userId, { groupLibraries: libraries }, now);
    await this.db.batch([
      this.db
        .update(users)
        .set({ ...columns, updatedAt: now })
        .where(eq(users.id, userId)),
      ...statements,
    ]);
  }

  /** The label grant of one user, if any. */
  async labelGrant(userId: string, labelId: string) {
    return this.db
      .select()
      .from(userSharingLabels)
      .where(and(eq(userSharingLabels.userId, userId), eq(userSharingLabels.labelId, labelId)))
      .get();
  }
}

/**
 * The access a user is written with: an /api/v1 or Komga change, or the libraries a single sign-on's groups
 * grant (ids or names; null: every library).
 */
export type AccessWrite = { change: AccessChange } | { groupLibraries: readonly string[] | null };

/**
 * What writing `access` for a user takes: columns of the user row, and statements for the grant rows (run
 * in the same batch after the row is written — inserted, for a new user, so that no user ever exists with
 * more access than they were given; users.repository.ts `create`).
 */
export function accessWrites(
  db: Database,
  userId: string,
  access: AccessWrite,
  now: string,
): { columns: Partial<typeof users.$inferInsert>; statements: BatchItem<'sqlite'>[] } {
  const columns: Partial<typeof users.$inferInsert> = {};
  const statements: BatchItem<'sqlite'>[] = [];
  if ('groupLibraries' in access) {
    const libraries = access.groupLibraries;
    columns.sharedAllLibraries = libraries === null;
    statements.push(db.delete(userLibraryAccess).where(eq(userLibraryAccess.userId, userId)));
    if (libraries !== null && libraries.length > 0) {
      const names = JSON.stringify(libraries.map((l) => l.toLowerCase()));
      statements.push(
        db.insert(userLibraryAccess).select(
          sql`SELECT u.id, lib.id FROM users u, libraries lib WHERE u.id = ${userId}
            AND (lib.id IN (SELECT value FROM json_each(${JSON.stringify(libraries)}))
              OR lower(lib.name) IN (SELECT value FROM json_each(${names})))`,
        ),
      );
    }
    return { columns, statements };
  }
  const { change } = access;
  if (change.libraries) columns.sharedAllLibraries = change.libraries.all;
  if (change.ageRestriction !== undefined) {
    columns.ageRestrictionAge = change.ageRestriction?.age ?? null;
    columns.ageRestrictionMode = change.ageRestriction?.mode ?? null;
  }
  if (change.libraries) {
    statements.push(db.delete(userLibraryAccess).where(eq(userLibraryAccess.userId, userId)));
    const ids = change.libraries.all ? [] : [...new Set(change.libraries.ids)];
    if (ids.length > 0) {
      statements.push(
        db
          .insert(userLibraryAccess)
          .select(sql`SELECT u.id, l.value FROM users u, json_each(${JSON.stringify(ids)}) l WHERE u.id = ${userId}`),
      );
    }
  }
  if (change.labels) {
    statements.push(db.delete(userSharingLabels).where(eq(userSharingLabels.userId, userId)));
    const grants = change.labels.map((g) => [g.labelId, g.mode]);
    if (grants.length > 0) {
      statements.push(
        db.insert(userSharingLabels).select(
          sql`SELECT u.id, g.value ->> 0, g.value ->> 1, ${now} FROM users u, json_each(${JSON.stringify(grants)}) g
            WHERE u.id = ${userId}`,
        ),
      );
    }
  }
  return { columns, statements };
}
