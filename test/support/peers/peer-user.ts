/**
 * A user as `POST /admin/import/users` takes it from a peer (issue 33; docs/DECISIONS.md §Coming from Komga or
 * Kavita): a reader with no password who sees every library and has no restriction, unless `overrides` says
 * otherwise. Shared by the import tests and the far-readers bench's import row so both send the same body.
 */
import type { ImportUser } from '../../../src/schemas/import.schema';

export function peerUser(foreignId: string, overrides: Partial<ImportUser> = {}): ImportUser {
  return {
    foreignId,
    username: foreignId,
    email: `${foreignId}@home.test`,
    role: 'reader',
    active: true,
    password: null,
    sharedAllLibraries: true,
    libraryIds: [],
    ageRestriction: null,
    labelsAllow: [],
    labelsExclude: [],
    ...overrides,
  };
}
