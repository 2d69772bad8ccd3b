/** API.md §4 Authentication (register, verify-email, resend-verification); DECISIONS.md §Auth. */
import { env } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { setupAdmin } from '../support/factories';
import { api, type Credentials, expectError } from '../support/http';

const NEW_USER = { username: 'Reader.One', email: 'reader.one@example.com', password: 'paper-lantern-42' };
const NEW_LOGIN = { username: NEW_USER.username, password: NEW_USER.password };

/** Turns a boolean setting on the way an admin does (API.md §4 Settings). */
async function enableSetting(
  admin: Credentials,
  key: 'auth.registration_enabled' | 'auth.email_verification_required',
) {
  const res = await api(`/admin/settings/${key}`, { method: 'PUT', auth: admin, json: { value: true } });
  if (res.status !== 200) throw new Error(`enabling ${key} failed: ${res.status} ${res.text}`);
}

async function outbox(recipient: string) {
  const { results } = await env.DB.prepare(
    'SELECT recipient, subject, body FROM email_outbox WHERE recipient = ? ORDER BY created_at',
  )
    .bind(recipient)
    .all<{ recipient: string; subject: string; body: string }>();
  return results;
}

/** The token is the only thing a user takes from the mail; it is stored server-side only as a hash. */
function tokenFrom(mail: { body: string } | undefined): string {
  const match = /token is: (\S+)/.exec(mail?.body ?? '');
  if (!match?.[1]) throw new Error(`no token in mail: ${mail?.body}`);
  return match[1];
}

describe('registration switch (DECISIONS.md §Auth: off by default → 403)', () => {
  it('refuses registration on a fresh server and creates nobody', async () => {
    await setupAdmin();
    const res = await api('/auth/register', { json: NEW_USER });
    expect(expectError(res, 403, 'Forbidden').message).toMatch(/registration/i);
    expect((await api('/auth/login', { json: NEW_LOGIN })).status).toBe(401);
  });

  it('creates an active reader who can log in once registration is enabled', async () => {
    const { auth: admin } = await setupAdmin();
    await enableSetting(admin, 'auth.registration_enabled');
    expect((await api('/setup/status')).body.registrationEnabled).toBe(true);

    const res = await api('/auth/register', { json: NEW_USER });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      user: { id: expect.any(String), username: 'Reader.One', email: 'reader.one@example.com', role: 'reader' },
      verificationRequired: false,
      message: expect.any(String),
    });

    const login = await api('/auth/login', { json: { username: 'reader.one', password: NEW_USER.password } });
    expect(login.status).toBe(200);
    const me = await api('/auth/me', { auth: { token: login.body.access_token } });
    expect(me.body).toMatchObject({
      username: 'Reader.One',
      role: 'reader',
      isActive: true,
      authMethod: 'session',
      hasPassword: true,
    });
    expect(me.body.effectivePermissions).not.toContain('UsersRead');
  });
});

describe('registration validation (API.md §7 400/409, DECISIONS.md §Errors details)', () => {
  it('answers 409 with the clashing field for a username taken in another case or a taken e-mail', async () => {
    const { auth: admin } = await setupAdmin();
    await enableSetting(admin, 'auth.registration_enabled');
    expect((await api('/auth/register', { json: NEW_USER })).status).toBe(201);

    const sameName = expectError(
      await api('/auth/register', { json: { ...NEW_USER, username: 'READER.one', email: 'other@example.com' } }),
      409,
      'Conflict',
    );
    expect(sameName.details).toEqual([{ path: 'username', message: expect.any(String) }]);

    const sameMail = expectError(
      await api('/auth/register', { json: { ...NEW_USER, username: 'someone', email: 'Reader.One@Example.com' } }),
      409,
      'Conflict',
    );
    expect(sameMail.details).toEqual([{ path: 'email', message: expect.any(String) }]);

    const both = expectError(await api('/auth/register', { json: NEW_USER }), 409, 'Conflict');
    expect(both.details?.map((d) => d.path).sort()).toEqual(['email', 'username']);
  });

  it.each([
    ['a short password', { password: 'short1' }, 'password'],
    ['a common password', { password: 'password123' }, 'password'],
    ['a one-character password', { password: 'aaaaaaaaaaaa' }, 'password'],
    ['an invalid e-mail', { email: 'not-an-address' }, 'email'],
    ['the reserved username api', { username: 'api' }, 'username'],
    ['the reserved username API in capitals', { username: 'API' }, 'username'],
    ['a username with spaces', { username: 'two words' }, 'username'],
    ['an unknown field', { role: 'admin' }, '(root)'],
  ])('answers 400 naming the field for %s', async (_case, change, path) => {
    const { auth: admin } = await setupAdmin();
    await enableSetting(admin, 'auth.registration_enabled');
    const error = expectError(await api('/auth/register', { json: { ...NEW_USER, ...change } }), 400, 'BadRequest');
    expect(error.details?.map((d) => d.path)).toEqual([path]);
    expect((await api('/auth/login', { json: NEW_LOGIN })).status).toBe(401);
  });

  it('answers 400 listing every missing field', async () => {
    const { auth: admin } = await setupAdmin();
    await enableSetting(admin, 'auth.registration_enabled');
    const error = expectError(await api('/auth/register', { json: {} }), 400, 'BadRequest');
    expect(error.details?.map((d) => d.path).sort()).toEqual(['email', 'password', 'username']);
  });
});

describe('e-mail verification (DECISIONS.md §Auth: inactive until POST /auth/verify-email)', () => {
  async function registerUnverified() {
    const { auth: admin } = await setupAdmin();
    await enableSetting(admin, 'auth.registration_enabled');
    await enableSetting(admin, 'auth.email_verification_required');
    const res = await api('/auth/register', { json: NEW_USER });
    expect(res.status).toBe(201);
    expect(res.body.verificationRequired).toBe(true);
    expect(res.body.message).toMatch(/e-mail/i);
  }

  it('keeps the account inactive until the mailed token is sent back, then it can log in', async () => {
    await registerUnverified();
    const refused = expectError(await api('/auth/login', { json: NEW_LOGIN }), 401, 'Unauthorized');
    expect(refused.message).toMatch(/verify/i);

    const mails = await outbox(NEW_USER.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toMatch(/verify/i);
    const token = tokenFrom(mails[0]);

    const verified = await api('/auth/verify-email', { json: { token } });
    expect(verified.status).toBe(200);
    expect(verified.body.message).toEqual(expect.any(String));

    const login = await api('/auth/login', { json: NEW_LOGIN });
    expect(login.status).toBe(200);
    const me = await api('/auth/me', { auth: { token: login.body.access_token } });
    expect(me.body).toMatchObject({ isActive: true, emailVerified: true });
  });

  it('keeps an account an admin disabled while it awaited verification disabled', async () => {
    const { auth: admin } = await setupAdmin();
    await enableSetting(admin, 'auth.registration_enabled');
    await enableSetting(admin, 'auth.email_verification_required');
    const created = await api('/auth/register', { json: NEW_USER });
    const token = tokenFrom((await outbox(NEW_USER.email))[0]);
    const disabled = await api(`/users/${created.body.user.id}`, {
      method: 'PUT',
      auth: admin,
      json: { isActive: false },
    });
    expect(disabled.status).toBe(200);
    expectError(await api('/auth/verify-email', { json: { token } }), 400, 'BadRequest');
    expectError(await api('/auth/login', { json: NEW_LOGIN }), 401, 'Unauthorized');
  });

  it('refuses a wrong token and a token that was already used', async () => {
    await registerUnverified();
    const token = tokenFrom((await outbox(NEW_USER.email))[0]);

    const wrong = expectError(await api('/auth/verify-email', { json: { token: `${token}x` } }), 400, 'BadRequest');
    expect(wrong.details).toEqual([{ path: 'token', message: expect.any(String) }]);
    expect((await api('/auth/login', { json: NEW_LOGIN })).status).toBe(401);

    expect((await api('/auth/verify-email', { json: { token } })).status).toBe(200);
    expectError(await api('/auth/verify-email', { json: { token } }), 400, 'BadRequest');
    expectError(await api('/auth/verify-email', { json: {} }), 400, 'BadRequest');
  });

  it('answers resend-verification with 202 for known and unknown addresses alike, mailing only the real one', async () => {
    await registerUnverified();
    const first = tokenFrom((await outbox(NEW_USER.email))[0]);
    const resend = (email: string) => api('/auth/resend-verification', { json: { email } });

    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      // Within a minute of the last mail nothing new is sent (the endpoint is public), with the same 202.
      const known = await resend(NEW_USER.email);
      const unknown = await resend('nobody@example.com');
      expect(known.status).toBe(202);
      expect(unknown.status).toBe(202);
      expect(unknown.body).toEqual(known.body);
      expect(await outbox(NEW_USER.email)).toHaveLength(1);
      expect(await outbox('nobody@example.com')).toHaveLength(0);

      vi.setSystemTime(Date.now() + 61_000);
      expect((await resend(NEW_USER.email)).status).toBe(202);
      expect((await resend(NEW_USER.email)).status).toBe(202);
      const mails = await outbox(NEW_USER.email);
      expect(mails).toHaveLength(2);

      // The new mail carries a new token, and it replaces the first one.
      const second = tokenFrom(mails[1]);
      expect(second).not.toBe(first);
      expectError(await api('/auth/verify-email', { json: { token: first } }), 400, 'BadRequest');
      expect((await api('/auth/verify-email', { json: { token: second } })).status).toBe(200);
      expect((await api('/auth/login', { json: NEW_LOGIN })).status).toBe(200);

      // A verified account gets no further mail, with the same 202.
      vi.setSystemTime(Date.now() + 61_000);
      expect((await resend(NEW_USER.email)).status).toBe(202);
      expect(await outbox(NEW_USER.email)).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a token older than 48 hours; a resent one works', async () => {
    await registerUnverified();
    const stale = tokenFrom((await outbox(NEW_USER.email))[0]);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 48 * 3600 * 1000 + 60_000);
      const error = expectError(await api('/auth/verify-email', { json: { token: stale } }), 400, 'BadRequest');
      expect(error.message).toMatch(/expired/i);
      expect((await api('/auth/resend-verification', { json: { email: NEW_USER.email } })).status).toBe(202);
      const fresh = tokenFrom((await outbox(NEW_USER.email))[1]);
      expect((await api('/auth/verify-email', { json: { token: fresh } })).status).toBe(200);
      expect((await api('/auth/login', { json: NEW_LOGIN })).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('answers 400 for a resend request without a valid e-mail', async () => {
    await setupAdmin();
    const error = expectError(await api('/auth/resend-verification', { json: { email: 'nope' } }), 400, 'BadRequest');
    expect(error.details?.map((d) => d.path)).toEqual(['email']);
  });
});
