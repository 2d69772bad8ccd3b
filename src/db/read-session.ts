/**
 * One request's statements through one D1 session, for read replicas (`LONGBOX_DATABASE__READ_REPLICAS`;
 * DECISIONS.md §Far readers). D1's Sessions API sends a session's reads to a replica near the Worker and its
 * writes to the primary, and keeps the session sequentially consistent: once it has written, or started from
 * a bookmark, it never reads an older database. The bookmark it reaches goes back to the client, which sends
 * it with its next request, so a client always reads its own writes.
 *
 * The request's drizzle instance is made over the session without the schema's relational configuration
 * (Longbox runs no relational queries), which would cost a walk of every table on each request.
 */
import { drizzle } from 'drizzle-orm/d1';
import { retryWhenBusy } from './busy-retry';
import type { Database } from './client';

export interface ReadSession {
  db: Database;
  /** The latest database state the session saw (null before its first statement). */
  bookmark(): string | null;
}

/** Where a session starts: the client's bookmark, or anywhere (the nearest replica). */
export function readSession(d1: D1Database, bookmark: string | null): ReadSession {
  const session = d1.withSession(bookmark ?? 'first-unconstrained');
  const db = drizzle(retryWhenBusy(session) as unknown as D1Database) as unknown as Database;
  return { db, bookmark: () => session.getBookmark() };
}
