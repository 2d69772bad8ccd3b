/**
 * Authentication activity (docs/DECISIONS.md §Auth, "Authentication activity"; Komga's `LoginListener` and
 * `AuthenticationActivityCleanupController`): every sign-in and failed sign-in, with where it came from, so an
 * admin (and each user, for their own account) can see who signed in, how, and what failed. Credentials sent
 * with every request are recorded as sign-ins, not as requests: an HTTP Basic check when its password is really
 * verified (authentication.service.ts caches it a few minutes), an API key when it is used again after
 * `API_KEY_SIGN_IN_GAP_MS`. Rows are kept `ACTIVITY_RETENTION_MS` (Komga: one month) and at most
 * `ACTIVITY_ROW_LIMIT` (failed sign-ins with made-up names must not grow the table without end), pruned hourly.
 */
import { newId, nowIso } from '../lib/ids';
import type {
  ActivityQuery,
  AuthenticationActivityRecord,
  AuthenticationActivityRepository,
} from '../repositories/authentication-activity.repository';

/** How a caller proved who they are; Komga's names where Komga has the same way (`Basic` shows as Komga's `Password` on /komga). */
export type SignInSource = 'Password' | 'Basic' | 'ApiKey' | 'CloudflareAccess' | `OAuth2:${string}`;

export const ACTIVITY_RETENTION_MS = 30 * 24 * 3_600_000;
export const ACTIVITY_ROW_LIMIT = 50_000;
/** An API key unused this long that is used again counts as a new sign-in. */
export const API_KEY_SIGN_IN_GAP_MS = 3_600_000;

export interface SignInAttempt {
  source: SignInSource;
  /** Where the attempt came from (authentication.service.ts `ClientInfo`). */
  client: { address: string | null; userAgent: string | null };
  /** The account concerned, when one is known. */
  user: { id: string; email: string } | null;
  /** The name typed, for a failure naming no account. */
  name?: string;
  apiKey?: { id: string; name: string };
  /** Why it failed; absent for a success. */
  error?: string;
}

export class AuthenticationActivityService {
  constructor(private readonly activity: AuthenticationActivityRepository) {}

  /**
   * Records one attempt. A failure to record is swallowed: the log must never turn a good sign-in into an
   * error, or hide the real reason of a refused one.
   */
  async record(attempt: SignInAttempt): Promise<void> {
    await this.insert(attempt).catch(() => undefined);
  }

  /** Records one attempt and fails when the row could not be written: for work after the answer, tried again. */
  async insert(attempt: SignInAttempt): Promise<void> {
    await this.activity.insert(this.rowOf(attempt));
  }

  /** The row recording an attempt, for a sign-in that writes it with its other rows in one batch. */
  rowOf(attempt: SignInAttempt): AuthenticationActivityRecord {
    return {
      id: newId(),
      userId: attempt.user?.id ?? null,
      email: attempt.user?.email ?? attempt.name?.slice(0, 254) ?? null,
      apiKeyId: attempt.apiKey?.id ?? null,
      apiKeyName: attempt.apiKey?.name ?? null,
      ip: attempt.client.address,
      userAgent: attempt.client.userAgent?.slice(0, 512) ?? null,
      success: attempt.error === undefined,
      error: attempt.error ?? null,
      source: attempt.source,
      dateTime: nowIso(),
    };
  }

  list(query: ActivityQuery) {
    return this.activity.list(query);
  }

  latest(userId: string, apiKeyId?: string) {
    return this.activity.latest(userId, apiKeyId);
  }

  async prune(now: Date): Promise<void> {
    await this.activity.prune(new Date(now.getTime() - ACTIVITY_RETENTION_MS).toISOString(), ACTIVITY_ROW_LIMIT);
  }
}
