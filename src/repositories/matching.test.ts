import { sql } from 'drizzle-orm';
import { SQLiteSyncDialect } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import { apiKeys, sessions } from '../db/schema';
import { matching, matchingPlaceholders } from './matching';

const dialect = new SQLiteSyncDialect();

describe('matching', () => {
  it('is one equality a named column, by its column name, with the values bound', () => {
    const { sql: text, params } = dialect.sqlToQuery(matching(apiKeys, { id: 'key-1', userId: 'user-1' }));
    expect(text).toBe('("api_keys"."id" = ? and "api_keys"."user_id" = ?)');
    expect(params).toEqual(['key-1', 'user-1']);
  });

  it('refuses a missing value instead of matching every row', () => {
    expect(() => matching(apiKeys, { id: undefined, userId: 'user-1' })).toThrow(/no value for id/);
  });

  it('names the placeholders of a prepared statement after the columns', () => {
    const where = sql`${matchingPlaceholders(sessions, 'id', 'userId')}`;
    const { sql: text, params } = dialect.sqlToQuery(where);
    expect(text).toBe('("sessions"."id" = ? and "sessions"."user_id" = ?)');
    expect(params.map((p) => (p as { name: string }).name)).toEqual(['id', 'userId']);
  });
});
