/**
 * Writes that decide or rely on access (docs/DECISIONS.md §Enforcement, §Administration): a user created
 * with limited access never exists seeing every library, not even when the write of their grants fails;
 * Komga's bulk book metadata PATCH edits the books the caller sees and skips the others, as Komga skips
 * unknown ids, without writing a hidden one.
 */
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { buildAccessFixture } from '../support/access-fixture';
import { db, seedLibrary } from '../support/catalog-factory';
import { ADMIN, setupAdmin } from '../support/factories';
import { api, type Credentials } from '../support/http';
import { komga } from '../support/komga';

const adminBasic: Credentials = { basic: { username: ADMIN.username, password: ADMIN.password } };

/** Makes every write of a library grant fail, as a D1 error (or a library deleted meanwhile) would. */
async function failGrantWrites() {
  await db.run(
    sql.raw(`CREATE TRIGGER fail_grants BEFORE INSERT ON user_library_access
      BEGIN SELECT RAISE(ABORT, 'simulated failure of the grant write'); END`),
  );
}

describe('a user created with limited access', () => {
  afterEach(async () => {
    await db.run(sql.raw('DROP TRIGGER IF EXISTS fail_grants'));
  });

  it('is written with their grants in one batch: a failed grant write leaves no user seeing every library', async () => {
    const admin = await setupAdmin();
    const kids = await seedLibrary({ name: 'Kids' });
    await seedLibrary({ name: 'Grown-ups' });

    const created = await api('/users', {
      auth: admin.auth,
      json: {
        username: 'limited',
        email: 'limited@example.com',
        password: 'limited-password-1',
        role: 'reader',
        customPermissions: [],
        sharedAllLibraries: false,
        sharedLibraryIds: [kids.id],
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ sharedAllLibraries: false, sharedLibraryIds: [kids.id] });
    const seen = await api('/libraries', { auth: { basic: { username: 'limited', password: 'limited-password-1' } } });
    expect(seen.body.map((l: { name: string }) => l.name)).toEqual(['Kids']);

    await failGrantWrites();
    const refused = await api('/users', {
      auth: admin.auth,
      json: {
        username: 'halfmade',
        email: 'halfmade@example.com',
        password: 'halfmade-password-1',
        role: 'reader',
        customPermissions: [],
        sharedAllLibraries: false,
        sharedLibraryIds: [kids.id],
      },
    });
    expect(refused.status).not.toBe(201);
    const komgaRefused = await komga('/api/v2/users', {
      auth: adminBasic,
      json: {
        email: 'komgakid@example.com',
        password: 'komgakid-password-1',
        roles: [],
        sharedLibraries: { all: false, libraryIds: [kids.id] },
      },
    });
    expect(komgaRefused.status).not.toBe(201);

    // Neither account exists: nobody can sign in with them, and the admin's list does not show them.
    const users = await api('/users?pageSize=100', { auth: admin.auth });
    expect(users.body.data.map((u: { username: string }) => u.username).sort()).toEqual(['admin', 'limited']);
    const halfmade = await api('/libraries', {
      auth: { basic: { username: 'halfmade', password: 'halfmade-password-1' } },
    });
    expect(halfmade.status).toBe(401);
  });
});

describe("Komga's bulk book metadata PATCH", () => {
  it('edits the books the caller sees and skips hidden and unknown ids, like Komga, writing nothing hidden', async () => {
    const f = await buildAccessFixture();
    const user: Credentials = { apiKey: f.userKey };
    const [visible] = f.series.xteen.bookIds;
    const [hidden] = f.series.xadult.bookIds;
    const unknown = '00000000-0000-4000-8000-000000000000';
    const summaryOf = async (id: string) => (await api(`/books/${id}/metadata`, { auth: f.admin })).body.summary;
    const before = await summaryOf(hidden as string);

    // The hidden id comes first: a loop that stopped at it would have written nothing, one that went on
    // would have written the hidden book.
    const response = await komga('/api/v1/books/metadata', {
      method: 'PATCH',
      auth: user,
      json: {
        [hidden as string]: { summary: 'Written by a restricted caller' },
        [visible as string]: { summary: 'Edited in bulk' },
        [unknown]: { summary: 'Nobody' },
      },
    });
    expect(response.status).toBe(204);
    expect(await summaryOf(visible as string)).toBe('Edited in bulk');
    expect(await summaryOf(hidden as string)).toBe(before);
  }, 120_000);
});
