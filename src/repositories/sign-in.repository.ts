/**
 * A password sign-in's round trips (issue 30: a reader far from the database pays each one): what is read
 * before the hash — the attempt counted against its throttle counters, the account it names with its grants,
 * and (for a login) the settings a session is issued with — in one batch; and what a right password writes —
 * its counters forgiven, the session, the account's last sign-in, the activity row — in another. Each table's
 * statements come from its own repository; this one only puts them in the same batch.
 */
import type { BatchItem } from 'drizzle-orm/batch';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { type AuthenticationActivityRecord, recordActivityStatement } from './authentication-activity.repository';
import { type AttemptWindow, countAttemptStatement, forgetAndReleaseStatements } from './login-attempts.repository';
import { createSessionStatement, type SessionRecord } from './sessions.repository';
import { allSettingsQuery, type SettingRow } from './settings.repository';
import { signInQuery, signInUsername, signInUserOf, touchLastLoginStatement } from './users.repository';

type Statement = BatchItem<'sqlite'>;

/**
 * A throttle counter only the database can name: `prefix` and the lowercased username of the account an
 * e-mail sign-in names (found as `signInQuery` finds it), or `fallback` when the name belongs to no account.
 */
export interface AccountCounter {
  accountNamed: string;
  prefix: string;
  fallback: string;
}

/** One attempt: the counters it is counted against and the name typed. */
export interface SignInAttemptKeys {
  counters: Array<string | AccountCounter>;
  name: string;
  /** The name may be the account's e-mail address. */
  orEmail: boolean;
  now: string;
  /** A counter whose window started at or before this has ended and starts over. */
  windowStart: string;
  /** Read the settings too (a login issues a session with their lifetime). */
  withSettings: boolean;
}

export type SignInUser = NonNullable<ReturnType<typeof signInUserOf>>;

export interface SignInRead {
  /** Each counter's window after this attempt, in the order given. */
  windows: Array<AttemptWindow | undefined>;
  found: SignInUser | undefined;
  /** Null unless asked for. */
  settings: SettingRow[] | null;
}

/** Throttle counters a right password forgives (deleted) or gives its attempt back to (decremented). */
export interface CounterRelease {
  forget: string[];
  release: string[];
}

export interface SignInWrites {
  counters?: CounterRelease;
  session?: SessionRecord;
  lastLogin?: { userId: string; at: string };
  activity?: AuthenticationActivityRecord;
}

/** Usernames are ASCII (UsernameSchema), so SQLite's lower() folds them as JavaScript's toLowerCase() does. */
const accountKey = ({ accountNamed, prefix, fallback }: AccountCounter) =>
  sql`coalesce(${prefix} || lower(${signInUsername(accountNamed, true)}), ${fallback})`;

export class SignInRepository {
  constructor(private readonly db: Database) {}

  /** The attempt counted and the account read, in one batch (one transaction). */
  async countAndFind(keys: SignInAttemptKeys): Promise<SignInRead> {
    const counted = keys.counters.map((key) =>
      countAttemptStatement(this.db, typeof key === 'string' ? key : accountKey(key), keys.now, keys.windowStart),
    );
    const statements: Statement[] = [...counted, signInQuery(this.db, keys.name, keys.orEmail)];
    if (keys.withSettings) statements.push(allSettingsQuery(this.db));
    const results = (await this.db.batch(statements as [Statement, ...Statement[]])) as unknown[];
    const windows = (results.slice(0, counted.length) as AttemptWindow[][]).map((rows) => rows[0]);
    const users = results[counted.length] as Parameters<typeof signInUserOf>[0];
    return {
      windows,
      found: signInUserOf(users),
      settings: keys.withSettings ? (results[counted.length + 1] as SettingRow[]) : null,
    };
  }

  /** Whatever of `writes` is given, in one batch (one transaction); nothing to write, no call. */
  async record(writes: SignInWrites): Promise<void> {
    const statements: Statement[] = [
      ...(writes.counters ? forgetAndReleaseStatements(this.db, writes.counters.forget, writes.counters.release) : []),
      ...(writes.session ? [createSessionStatement(this.db, writes.session)] : []),
      ...(writes.lastLogin ? [touchLastLoginStatement(this.db, writes.lastLogin.userId, writes.lastLogin.at)] : []),
      ...(writes.activity ? [recordActivityStatement(this.db, writes.activity)] : []),
    ];
    const [first, ...rest] = statements;
    if (first) await this.db.batch([first, ...rest]);
  }
}
