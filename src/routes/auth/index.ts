import { hasPassword } from '../../auth/password';
import type { Permission } from '../../auth/permissions';
import { createRouter } from '../../http/router';
import { accessFromGrants, toUserDto } from '../../mappers/user.mapper';
import { clearSessionCookie, setSessionCookie } from '../../auth/session-cookie';
import { clientInfo } from '../../http/client-info';
import { contracts as routes } from './auth.routes';

export const authRouter = createRouter()
  .openapi(routes.login, async (c) => {
    const { username, password } = c.req.valid('json');
    const session = await c.get('services').auth.login(username, password, clientInfo(c));
    setSessionCookie(c, session.access_token, session.expires_in);
    return c.json(session, 200);
  })
  .openapi(routes.register, async (c) => c.json(await c.get('services').accounts.register(c.req.valid('json')), 201))
  .openapi(routes.logout, async (c) => {
    await c.get('services').auth.logout(c.get('principal'));
    clearSessionCookie(c);
    return c.body(null, 204);
  })
  .openapi(routes.me, async (c) => {
    // Everything comes with the credential check: the user row and their grants (no second read).
    const principal = c.get('principal');
    const { user, apiKey } = principal;
    return c.json(
      {
        ...toUserDto({ user, access: accessFromGrants(user, principal.grants) }),
        authMethod: principal.method,
        effectivePermissions: [...principal.permissions].sort() as Permission[],
        apiKey: apiKey ? { id: apiKey.id, name: apiKey.name, libraryIds: apiKey.libraryIds } : null,
        hasPassword: hasPassword(user),
      },
      200,
    );
  })
  .openapi(routes.verifyEmail, async (c) => {
    await c.get('services').accounts.verifyEmail(c.req.valid('json').token);
    return c.json({ message: 'E-mail address verified; the account is active' }, 200);
  })
  .openapi(routes.resendVerification, async (c) => {
    await c.get('services').accounts.resendVerification(c.req.valid('json').email);
    return c.json({ message: 'If the address belongs to an unverified account, a new e-mail is on its way' }, 202);
  })
  .openapi(routes.changePassword, async (c) => {
    const body = c.req.valid('json');
    await c.get('services').accounts.changePassword(c.get('principal'), body.current_password, body.new_password);
    return c.json({ message: 'Password changed; your other sessions have ended' }, 200);
  });
