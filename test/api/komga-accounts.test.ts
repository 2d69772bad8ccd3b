/**
 * Komga's password changes and authentication activity (issue 17; gotson/komga `UserController`,
 * `PasswordUpdateDto`, `AuthenticationActivityDto`, `LoginListener`; docs/DECISIONS.md §Auth, "Authentication
 * activity"): `PATCH /api/v2/users/{me|id}/password` over the same password changes as /api/v1, and the sign-ins
 * and failed sign-ins Longbox records, paged as Komga pages them and decoded as komga-client decodes them.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { KomeliaAuthenticationActivity } from '../support/clients/komelia-users';
import { createApiKey, createUser, login, setupAdmin } from '../support/factories';
import { api, type Credentials } from '../support/http';
import { komga } from '../support/komga';

/** Komga's DTO in full: komga-client's fields plus the API key's id and name (Komga 1.x `apiKeyComment`). */
const Activity = KomeliaAuthenticationActivity.extend({
  apiKeyId: z.string().nullable(),
  apiKeyComment: z.string().nullable(),
  dateTime: z.string().regex(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/, "Komga's yyyy-MM-dd'T'HH:mm:ss'Z'"),
}).strict();
const ActivityPage = z.object({
  content: z.array(Activity),
  totalElements: z.number(),
  totalPages: z.number(),
  number: z.number(),
  size: z.number(),
  first: z.boolean(),
  last: z.boolean(),
  numberOfElements: z.number(),
  empty: z.boolean(),
  sort: z.object({ sorted: z.boolean(), unsorted: z.boolean(), empty: z.boolean() }),
  pageable: z.object({ pageNumber: z.number(), pageSize: z.number(), offset: z.number() }),
});

const NEW_PASSWORD = 'a brand new secret 42';
const CLIENT = { 'User-Agent': 'Komelia/0.16 (test)', 'CF-Connecting-IP': '203.0.113.9' };

const signIn = (username: string, password: string) =>
  api('/auth/login', { json: { username, password }, headers: CLIENT });

describe('Komga password changes', () => {
  it('PATCH users/me/password: 204, other sessions end, the one used stays; a bad password is a 400 naming the field', async () => {
    const { auth: admin } = await setupAdmin();
    const reader = await createUser(admin);
    const used: Credentials = { token: (await login(reader.username, reader.password)).token };
    const other: Credentials = { token: (await login(reader.username, reader.password)).token };
    const key = (await createApiKey(used, { name: 'tablet' })).key;

    for (const json of [{ password: 'short' }, { password: '' }, {}]) {
      const refused = await komga('/api/v2/users/me/password', { method: 'PATCH', auth: used, json });
      expect(refused.status, JSON.stringify(json)).toBe(400);
      expect(refused.body.message, JSON.stringify(json)).toMatch(/password/);
    }
    // An API key is not its owner: it cannot take the account over.
    const byKey = await komga('/api/v2/users/me/password', {
      method: 'PATCH',
      auth: { apiKey: key },
      json: { password: NEW_PASSWORD },
    });
    expect(byKey.status).toBe(403);
    expect((await signIn(reader.username, reader.password)).status).toBe(200);

    const changed = await komga('/api/v2/users/me/password', {
      method: 'PATCH',
      auth: used,
      json: { password: NEW_PASSWORD },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(204);
    expect(changed.bytes).toHaveLength(0);
    expect((await komga('/api/v2/users/me', { auth: used })).status).toBe(200);
    expect((await komga('/api/v2/users/me', { auth: other })).status).toBe(401);
    expect((await api('/auth/me', { auth: other })).status).toBe(401);
    expect((await signIn(reader.username, reader.password)).status).toBe(401);
    expect((await signIn(reader.username, NEW_PASSWORD)).status).toBe(200);
    // Komelia signs in with the e-mail address over Basic: the new password works there, the old one no more.
    const basic = (password: string): Credentials => ({
      basic: { username: `${reader.username}@example.com`, password },
    });
    expect((await komga('/api/v2/users/me', { auth: basic(NEW_PASSWORD) })).status).toBe(200);
    expect((await komga('/api/v2/users/me', { auth: basic(reader.password) })).status).toBe(401);
  });

  it("PATCH users/{id}/password: an admin sets another user's password and ends all their sessions; others get 403", async () => {
    const { auth: admin } = await setupAdmin();
    const reader = await createUser(admin);
    const neighbour = await createUser(admin);
    const session: Credentials = { token: (await login(reader.username, reader.password)).token };

    const byReader = await komga(`/api/v2/users/${neighbour.id}/password`, {
      method: 'PATCH',
      auth: session,
      json: { password: NEW_PASSWORD },
    });
    expect(byReader.status).toBe(403);
    expect((await signIn(neighbour.username, neighbour.password)).status).toBe(200);

    const weak = await komga(`/api/v2/users/${reader.id}/password`, {
      method: 'PATCH',
      auth: admin,
      json: { password: 'password' },
    });
    expect(weak.status).toBe(400);
    expect(weak.body.message).toMatch(/^password: /);
    const unknown = await komga(`/api/v2/users/${crypto.randomUUID()}/password`, {
      method: 'PATCH',
      auth: admin,
      json: { password: NEW_PASSWORD },
    });
    expect(unknown.status).toBe(404);

    const set = await komga(`/api/v2/users/${reader.id}/password`, {
      method: 'PATCH',
      auth: admin,
      json: { password: NEW_PASSWORD },
    });
    expect(set.status).toBe(204);
    expect((await komga('/api/v2/users/me', { auth: session })).status).toBe(401);
    expect((await signIn(reader.username, NEW_PASSWORD)).status).toBe(200);
    expect((await komga('/api/v2/users/me', { auth: admin })).status).toBe(200);

    // A user may name their own id, as Komga allows.
    const mine = { token: (await login(reader.username, NEW_PASSWORD)).token };
    const own = await komga(`/api/v2/users/${reader.id}/password`, {
      method: 'PATCH',
      auth: mine,
      json: { password: `${NEW_PASSWORD}!` },
    });
    expect(own.status).toBe(204);
    expect((await komga('/api/v2/users/me', { auth: mine })).status).toBe(200);
  });
});

describe('Komga authentication activity', () => {
  it('records password, Basic and API-key sign-ins and failures, and pages them as Komga does (Basic named Password)', async () => {
    const { auth: admin, userId: adminId } = await setupAdmin();
    const reader = await createUser(admin);
    const quiet = await createUser(admin);

    expect((await signIn(reader.username, 'not the password')).status).toBe(401);
    expect((await signIn('nobody-at-all', 'whatever password')).status).toBe(401);
    const session: Credentials = { token: (await signIn(reader.username, reader.password)).body.access_token };
    const basic: Credentials = { basic: { username: `${reader.username}@example.com`, password: reader.password } };
    // The password is checked once; the next requests within minutes are not new sign-ins.
    for (let i = 0; i < 3; i++) {
      expect((await komga('/api/v1/libraries', { auth: basic, headers: CLIENT })).status).toBe(200);
    }
    const key = await createApiKey(session, { name: 'Mihon on the tablet' });
    for (let i = 0; i < 3; i++) {
      expect((await komga('/api/v1/libraries', { auth: { apiKey: key.key }, headers: CLIENT })).status).toBe(200);
    }

    const mine = await komga('/api/v2/users/me/authentication-activity', { auth: session });
    expect(mine.status).toBe(200);
    const page = ActivityPage.parse(mine.body);
    expect(page).toMatchObject({ totalElements: 4, number: 0, size: 20, first: true, last: true });
    // Komga names a Basic check `Password`, like a login form's (its LoginListener), and so does /komga.
    expect(page.content.map((a) => [a.source, a.success])).toEqual([
      ['ApiKey', true],
      ['Password', true],
      ['Password', true],
      ['Password', false],
    ]);
    const [byKey, byBasic, byPassword, failed] = page.content;
    expect(byKey).toMatchObject({ userId: reader.id, apiKeyId: key.id, apiKeyComment: 'Mihon on the tablet' });
    expect(byBasic).toMatchObject({ userId: reader.id, email: `${reader.username}@example.com`, apiKeyId: null });
    expect(byPassword).toMatchObject({ ip: '203.0.113.9', userAgent: CLIENT['User-Agent'], error: null });
    expect(failed).toMatchObject({ userId: reader.id, success: false, error: 'Invalid username or password' });
    // Another user's rows and names no account has are not the reader's.
    expect(JSON.stringify(mine.body)).not.toContain('nobody-at-all');

    const oldestFirst = ActivityPage.parse(
      (await komga('/api/v2/users/me/authentication-activity?sort=dateTime,asc&size=3&page=1', { auth: session })).body,
    );
    expect(oldestFirst).toMatchObject({ totalElements: 4, totalPages: 2, number: 1, numberOfElements: 1, last: true });
    expect(oldestFirst.content.map((a) => a.source)).toEqual(['ApiKey']);
    expect(oldestFirst.sort.sorted).toBe(true);

    // The admin's list holds everyone's, the failure of a made-up name included; a reader may not read it.
    expect((await komga('/api/v2/users/authentication-activity', { auth: session })).status).toBe(403);
    const everyone = ActivityPage.parse(
      (await komga('/api/v2/users/authentication-activity?unpaged=true', { auth: admin })).body,
    );
    expect(everyone.content.find((a) => a.email === 'nobody-at-all')).toMatchObject({
      userId: null,
      success: false,
      source: 'Password',
    });
    expect(everyone.content.filter((a) => a.userId === reader.id)).toHaveLength(4);
    const byEmail = ActivityPage.parse(
      (await komga('/api/v2/users/authentication-activity?sort=email,asc&sort=dateTime,desc', { auth: admin })).body,
    );
    const emails = byEmail.content.map((a) => a.email ?? '');
    expect(emails).toEqual([...emails].sort());

    // What Komelia's Users screen asks for each user: the latest, or 404 for a user who never signed in.
    const latest = await komga(`/api/v2/users/${reader.id}/authentication-activity/latest`, { auth: admin });
    expect(latest.status).toBe(200);
    expect(KomeliaAuthenticationActivity.parse(latest.body)).toMatchObject({ source: 'ApiKey', success: true });
    const ofPassword = await komga(
      `/api/v2/users/${reader.id}/authentication-activity/latest?apikey_id=${crypto.randomUUID()}`,
      { auth: admin },
    );
    expect(ofPassword.status).toBe(404);
    const ofKey = await komga(`/api/v2/users/${reader.id}/authentication-activity/latest?apikey_id=${key.id}`, {
      auth: admin,
    });
    expect(Activity.parse(ofKey.body).apiKeyId).toBe(key.id);
    expect((await komga(`/api/v2/users/${quiet.id}/authentication-activity/latest`, { auth: admin })).status).toBe(404);
    expect(
      (await komga(`/api/v2/users/${crypto.randomUUID()}/authentication-activity/latest`, { auth: admin })).status,
    ).toBe(404);
    expect((await komga(`/api/v2/users/${reader.id}/authentication-activity/latest`, { auth: session })).status).toBe(
      200,
    );
    expect((await komga(`/api/v2/users/${adminId}/authentication-activity/latest`, { auth: session })).status).toBe(
      403,
    );
  });

  it('records the refusal of a disabled account, and forgets a deleted user’s activity', async () => {
    const { auth: admin } = await setupAdmin();
    const reader = await createUser(admin);
    expect((await signIn(reader.username, reader.password)).status).toBe(200);
    const disabled = await api(`/users/${reader.id}`, { method: 'PUT', auth: admin, json: { isActive: false } });
    expect(disabled.status, disabled.text).toBe(200);
    expect((await signIn(reader.username, reader.password)).status).toBe(401);

    const rows = ActivityPage.parse(
      (await komga('/api/v2/users/authentication-activity?unpaged=true', { auth: admin })).body,
    ).content.filter((a) => a.userId === reader.id);
    expect(rows.map((a) => [a.success, a.error])).toEqual([
      [false, 'This account is disabled'],
      [true, null],
    ]);

    expect((await api(`/users/${reader.id}`, { method: 'DELETE', auth: admin })).status).toBe(204);
    const after = ActivityPage.parse(
      (await komga('/api/v2/users/authentication-activity?unpaged=true', { auth: admin })).body,
    );
    expect(after.content.some((a) => a.userId === reader.id)).toBe(false);
    expect(after.totalElements).toBe(0);
  });
});
