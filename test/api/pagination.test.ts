/** API.md §2 Paginated envelope, §4 Pagination parameters, §8 Limits, §9 (page_size); DECISIONS.md §Lists. */
import { describe, expect, it } from 'vitest';
import { api, type Credentials, expectError } from '../support/http';
import { createUser, setupAdmin } from '../support/factories';

const USERS = '/api/v1/users';

/** The admin plus four readers: five users, created in this order. */
async function fiveUsers(): Promise<{ auth: Credentials; names: string[] }> {
  const admin = await setupAdmin();
  const names = ['admin'];
  for (let i = 1; i <= 4; i++) names.push((await createUser(admin.auth, { username: `reader${i}` })).username);
  return { auth: admin.auth, names };
}

/** A link with its query parameters in a fixed order: the envelope does not promise an order. */
function norm(link: string | null): string | null {
  if (link === null) return null;
  const url = new URL(link, 'http://longbox.test');
  url.searchParams.sort();
  return `${url.pathname}?${url.searchParams}`;
}
const at = (page: number, pageSize: number) => `${USERS}?page=${page}&pageSize=${pageSize}`;
const linksOf = (body: { links: Record<string, string | null> }) =>
  Object.fromEntries(Object.entries(body.links).map(([name, link]) => [name, norm(link)]));

const namesOf = (body: { data: Array<{ username: string }> }) => body.data.map((u) => u.username);

describe('the paginated envelope through GET /users (API.md §2 Paginated envelope)', () => {
  it('walks the pages with first/last/prev/next links and a stable order', async () => {
    const { auth, names } = await fiveUsers();

    const first = await api('/users?pageSize=2', { auth });
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(['data', 'links', 'page', 'pageSize', 'total', 'totalPages']);
    expect(first.body).toMatchObject({ page: 1, pageSize: 2, total: 5, totalPages: 3 });
    expect(namesOf(first.body)).toEqual(names.slice(0, 2));
    expect(linksOf(first.body)).toEqual({
      self: at(1, 2),
      first: at(1, 2),
      last: at(3, 2),
      prev: null,
      next: at(2, 2),
    });

    const middle = await api(first.body.links.next, { auth });
    expect(namesOf(middle.body)).toEqual(names.slice(2, 4));
    expect(linksOf(middle.body)).toMatchObject({ prev: at(1, 2), next: at(3, 2) });

    const last = await api(middle.body.links.next, { auth });
    expect(last.body).toMatchObject({ page: 3, pageSize: 2, total: 5, totalPages: 3 });
    expect(namesOf(last.body)).toEqual(names.slice(4));
    expect(last.body.links.next).toBeNull();
    expect(norm(last.body.links.prev)).toBe(at(2, 2));
    expect(last.body.links.last).toBe(last.body.links.self);

    // A page beyond the end is empty but still reports the real total.
    const beyond = await api('/users?page=9&pageSize=2', { auth });
    expect(beyond.status).toBe(200);
    expect(beyond.body).toMatchObject({ data: [], page: 9, pageSize: 2, total: 5, totalPages: 3 });
    expect(beyond.body.links.next).toBeNull();
    expect(norm(beyond.body.links.prev)).toBe(at(3, 2));

    // The default page and size (API.md §8): page 1 of 50.
    const defaults = await api('/users', { auth });
    expect(defaults.body).toMatchObject({ page: 1, pageSize: 50, total: 5, totalPages: 1 });
    expect(linksOf(defaults.body)).toEqual({
      self: at(1, 50),
      first: at(1, 50),
      last: at(1, 50),
      prev: null,
      next: null,
    });
  });

  it('clamps pageSize above 500 and says so; accepts the legacy page_size alias on GET', async () => {
    const admin = await setupAdmin();
    const clamped = await api('/users?pageSize=1000', { auth: admin.auth });
    expect(clamped.status).toBe(200);
    expect(clamped.body).toMatchObject({ page: 1, pageSize: 500, total: 1, totalPages: 1 });
    expect(norm(clamped.body.links.self)).toBe(at(1, 500));

    await createUser(admin.auth, { username: 'second' });
    const legacy = await api('/users?page_size=1&page=2', { auth: admin.auth });
    expect(legacy.body).toMatchObject({ page: 2, pageSize: 1, total: 2, totalPages: 2 });
    expect(namesOf(legacy.body)).toEqual(['second']);
    // Links speak the preferred name only.
    expect(linksOf(legacy.body)).toEqual({
      self: at(2, 1),
      first: at(1, 1),
      last: at(2, 1),
      prev: at(1, 1),
      next: null,
    });
    expect(JSON.stringify(legacy.body.links)).not.toContain('page_size');
    // When both are sent, pageSize wins.
    expect((await api('/users?page_size=1&pageSize=2', { auth: admin.auth })).body.pageSize).toBe(2);
  });

  it('keeps other query parameters in every link', async () => {
    const admin = await setupAdmin();
    await createUser(admin.auth, { username: 'second' });
    const res = await api('/users?view=compact&pageSize=1&lang=en', { auth: admin.auth });
    for (const link of [res.body.links.self, res.body.links.first, res.body.links.last, res.body.links.next]) {
      const url = new URL(link, 'http://longbox.test');
      expect(url.pathname).toBe(USERS);
      expect(url.searchParams.get('view')).toBe('compact');
      expect(url.searchParams.get('lang')).toBe('en');
      expect(url.searchParams.get('pageSize')).toBe('1');
      expect(url.searchParams.get('page')).toMatch(/^[12]$/);
    }
  });

  it('rejects page < 1, pageSize < 1 and non-integers with a 400 envelope naming the parameter', async () => {
    const admin = await setupAdmin();
    const cases: Array<[string, string]> = [
      ['page=0', 'page'],
      ['pageSize=0', 'pageSize'],
      ['page_size=0', 'page_size'],
      ['page=abc', 'page'],
      ['page=-1', 'page'],
      ['page=1.5', 'page'],
      ['pageSize=ten', 'pageSize'],
      ['page=', 'page'],
    ];
    for (const [query, path] of cases) {
      const error = expectError(await api(`/users?${query}`, { auth: admin.auth }), 400, 'BadRequest');
      expect(error.details?.[0]?.path).toBe(path);
    }
  });
});
