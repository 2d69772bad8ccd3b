/** PUT /auth/password: a signed-in user changes their own password (the web app's account screen). */
import { describe, expect, it } from 'vitest';
import { createUser, setupAdmin } from '../support/factories';
import { api, expectError } from '../support/http';

describe('changing your own password', () => {
  it('needs the current password, ends the other sessions and keeps the one making the change', async () => {
    const { auth: admin } = await setupAdmin();
    const reader = await createUser(admin);
    const first = await api('/auth/login', { json: { username: reader.username, password: reader.password } });
    const second = await api('/auth/login', { json: { username: reader.username, password: reader.password } });
    const me = { token: first.body.access_token };
    const other = { token: second.body.access_token };

    const wrong = await api('/auth/password', {
      method: 'PUT',
      auth: me,
      json: { current_password: 'not-my-password', new_password: 'brand new secret 42' },
    });
    expectError(wrong, 403, 'Forbidden');
    expect((await api('/auth/me', { auth: me })).status).toBe(200); // a wrong answer does not end the session
    const weak = await api('/auth/password', {
      method: 'PUT',
      auth: me,
      json: { current_password: reader.password, new_password: 'short' },
    });
    expectError(weak, 400, 'BadRequest');

    const changed = await api('/auth/password', {
      method: 'PUT',
      auth: me,
      json: { current_password: reader.password, new_password: 'brand new secret 42' },
    });
    expect(changed.status).toBe(200);
    expect((await api('/auth/me', { auth: me })).status).toBe(200);
    expectError(await api('/auth/me', { auth: other }), 401, 'Unauthorized');
    expectError(
      await api('/auth/login', { json: { username: reader.username, password: reader.password } }),
      401,
      'Unauthorized',
    );
    const again = await api('/auth/login', { json: { username: reader.username, password: 'brand new secret 42' } });
    expect(again.status).toBe(200);
  });

  it('is refused without a session', async () => {
    await setupAdmin();
    const response = await api('/auth/password', {
      method: 'PUT',
      json: { current_password: 'x', new_password: 'brand new secret 42' },
    });
    expectError(response, 401, 'Unauthorized');
  });
});
