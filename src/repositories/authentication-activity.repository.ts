/** Sign-ins and failed sign-ins (db/tables/authentication-activity.ts): recorded, listed, pruned. */
import { and, asc, count, desc, eq, lt, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { authenticationActivity } from '../db/schema';

export type AuthenticationActivityRecord = typeof authenticationActivity.$inferSelect;

/** The columns a list may be sorted by (Komga's `AuthenticationActivityDao.sorts`). */
const SORTABLE = {
  dateTime: authenticationActivity.dateTime,
  email: authenticationActivity.email,
  success: authenticationActivity.success,
  ip: authenticationActivity.ip,
  error: authenticationActivity.error,
  userId: authenticationActivity.userId,
  userAgent: authenticationActivity.userAgent,
} as const;

export type ActivitySortField = keyof typeof SORTABLE;
export const ACTIVITY_SORT_FIELDS = Object.keys(SORTABLE) as ActivitySortField[];

export interface ActivityQuery {
  /** Only this user's rows; every row when absent. */
  userId?: string;
  sort: Array<{ field: ActivitySortField; direction: 'asc' | 'desc' }>;
  /** Null: every row. */
  page: { offset: number; limit: number } | null;
}

/** The statement recording one attempt, for a sign-in that writes it with its other rows (sign-in.repository.ts). */
export const recordActivityStatement = (db: Database, row: AuthenticationActivityRecord) =>
  db.insert(authenticationActivity).values(row);

export class AuthenticationActivityRepository {
  constructor(private readonly db: Database) {}

  async insert(row: AuthenticationActivityRecord): Promise<void> {
    await recordActivityStatement(this.db, row);
  }

  async list(query: ActivityQuery): Promise<{ rows: AuthenticationActivityRecord[]; total: number }> {
    const where = query.userId === undefined ? undefined : eq(authenticationActivity.userId, query.userId);
    // The id last: rows of the same second keep one order from page to page.
    const order: SQL[] = [
      ...query.sort.map((s) => (s.direction === 'asc' ? asc(SORTABLE[s.field]) : desc(SORTABLE[s.field]))),
      desc(authenticationActivity.id),
    ];
    const rows = this.db
      .select()
      .from(authenticationActivity)
      .where(where)
      .orderBy(...order);
    const [found, totals] = await Promise.all([
      query.page ? rows.limit(query.page.limit).offset(query.page.offset) : rows,
      this.db.select({ total: count() }).from(authenticationActivity).where(where),
    ]);
    return { rows: found, total: totals[0]?.total ?? 0 };
  }

  /** The user's latest row (of one API key, when given). */
  async latest(userId: string, apiKeyId?: string): Promise<AuthenticationActivityRecord | undefined> {
    return this.db
      .select()
      .from(authenticationActivity)
      .where(
        and(
          eq(authenticationActivity.userId, userId),
          apiKeyId === undefined ? undefined : eq(authenticationActivity.apiKeyId, apiKeyId),
        ),
      )
      .orderBy(desc(authenticationActivity.dateTime), desc(authenticationActivity.id))
      .limit(1)
      .get();
  }

  /** Rows older than `cutoff`, and every row beyond the newest `keep`. */
  async prune(cutoff: string, keep: number): Promise<void> {
    await this.db.batch([
      this.db.delete(authenticationActivity).where(lt(authenticationActivity.dateTime, cutoff)),
      this.db.delete(authenticationActivity).where(
        sql`${authenticationActivity.id} in (select ${authenticationActivity.id} from ${authenticationActivity}
          order by ${authenticationActivity.dateTime} desc limit -1 offset ${keep})`,
      ),
    ]);
  }
}
