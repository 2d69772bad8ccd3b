import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { isForeignKeyViolation, isUniqueViolation, savedUnlessTaken } from './errors';

// drizzle wraps a single statement's failure and keeps the driver's error, which names the constraint, as cause.
const wrapped = (message: string) => new DrizzleQueryError('update "sharing_labels" set …', [], new Error(message));

describe('constraint errors (a lost race is a 409, never a 500)', () => {
  it('sees a unique or foreign-key violation under drizzle’s wrapper as well as bare', () => {
    expect(isUniqueViolation(wrapped('D1_ERROR: UNIQUE constraint failed: sharing_labels.name'))).toBe(true);
    expect(isUniqueViolation(new Error('UNIQUE constraint failed: users.username'))).toBe(true);
    expect(isForeignKeyViolation(wrapped('D1_ERROR: FOREIGN KEY constraint failed'))).toBe(true);
    expect(isUniqueViolation(wrapped('D1_ERROR: no such table: x'))).toBe(false);
  });

  it('answers a wrapped unique violation as a 409 with the caller’s message', async () => {
    const failing = () => Promise.reject(wrapped('UNIQUE constraint failed: sharing_labels.name'));
    await expect(savedUnlessTaken(failing, 'A label with this name already exists')).rejects.toMatchObject({
      kind: 'Conflict',
      message: 'A label with this name already exists',
    });
  });
});
