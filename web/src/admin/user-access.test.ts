/**
 * The Access column of Admin → Users: one line saying what a user sees. (The form itself is driven in
 * Chromium against a real server: test/e2e/sharing.test.ts.)
 */
import { describe, expect, it } from 'vitest';
import type { User } from '../api/types';
import { accessSummary } from './user-access';

const base: User = {
  id: '11111111-1111-4111-8111-111111111111',
  username: 'kid',
  email: 'kid@example.test',
  role: 'reader',
  permissions: [],
  customPermissions: [],
  isActive: true,
  emailVerified: true,
  lastLoginAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  sharedAllLibraries: true,
  sharedLibraryIds: [],
  ageRestriction: null,
  sharingTags: [],
};

describe('accessSummary', () => {
  it('names the libraries, the age rule and the tags in one line', () => {
    expect(accessSummary(base)).toBe('All libraries');
    expect(accessSummary({ ...base, sharedAllLibraries: false })).toBe('No library');
    expect(
      accessSummary({
        ...base,
        sharedAllLibraries: false,
        sharedLibraryIds: ['a', 'b'],
        ageRestriction: { age: 12, restriction: 'ALLOW_ONLY' },
        sharingTags: [{ sharingTagId: 't', name: 'Mature', accessMode: 'deny' }],
      }),
    ).toBe('2 libraries · rated ≤ 12 · 1 tag');
    expect(accessSummary({ ...base, ageRestriction: { age: 16, restriction: 'EXCLUDE' } })).toBe(
      'All libraries · hides 16+',
    );
  });
});
