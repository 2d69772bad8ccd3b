/**
 * Signing in with the e-mail address (issue 31 point 2): the login form says "Username or email", as
 * Komga's and Kavita's do, so `POST /auth/login` takes either (DECISIONS.md §Auth). The throttle counts
 * the account, whichever of its names was typed.
 */
import { describe, expect, it } from 'vitest';
import { ADMIN, createUser, setupAdmin } from '../support/factories';
import { api, expectError } from '../support/http';

// Every failed attempt costs one argon2id hash (~0.2–0.5 s here).
const SLOW = 90_000;

function attempt(username: string, password: string, address = '203.0.113.31') {
  return api('/auth/login', { json: { username, password }, headers: { 'CF-Connecting-IP': address } });
}

describe('POST /auth/login by e-mail address', () => {
  it('signs in with the address, in any case, as the account it belongs to', async () => {
    const admin = await setupAdmin();
    const reader = await createUser(admin.auth, { email: 'Reader.Person@Example.com' });

    const byEmail = await attempt('reader.person@example.com', reader.password);
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.user).toMatchObject({ id: reader.id, username: reader.username });
    const me = await api('/auth/me', { auth: { token: byEmail.body.access_token } });
    expect(me.body).toMatchObject({ id: reader.id, username: reader.username });

    const shouted = await attempt('READER.PERSON@EXAMPLE.COM', reader.password);
    expect(shouted.status).toBe(200);
    expect(shouted.body.user.id).toBe(reader.id);

    // The user name keeps working.
    expect((await attempt(reader.username, reader.password)).status).toBe(200);
  });

  it(
    'answers a wrong password, and an address no account has, with the usual 401',
    async () => {
      await setupAdmin();
      const wrong = expectError(await attempt(ADMIN.email, 'not-the-password-1'), 401, 'Unauthorized');
      const unknown = expectError(await attempt('nobody@example.com', ADMIN.password), 401, 'Unauthorized');
      expect(wrong.message).toBe('Invalid username or password');
      expect(unknown.message).toBe(wrong.message);
    },
    SLOW,
  );

  it(
    'throttles the account: failures by address and by name share one counter',
    async () => {
      await setupAdmin();
      // Five failures spread over both spellings and over addresses (DECISIONS.md §Auth: 5 per account).
      const spellings = [ADMIN.email, 'admin', ADMIN.email.toUpperCase(), 'Admin', ADMIN.email];
      for (const [i, name] of spellings.entries()) {
        expectError(await attempt(name, `wrong-guess-${i}`, `198.51.100.${i + 40}`), 401, 'Unauthorized');
      }
      // Now the right password is refused whichever name is typed.
      for (const name of [ADMIN.email, 'admin']) {
        const res = await attempt(name, ADMIN.password, '192.0.2.31');
        expectError(res, 429, 'TooManyRequests');
        expect(Number(res.headers.get('Retry-After'))).toBeGreaterThan(0);
      }
    },
    SLOW,
  );
});
