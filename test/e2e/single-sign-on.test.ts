/**
 * Single sign-on in a real Chromium against a real OpenID Provider (panva's oidc-provider on loopback, a
 * different site from Longbox) and `wrangler dev`: the provider button on the login screen, the
 * provider's own sign-in page, back to the page the user was opening, signed in by the cookie alone (no
 * token in any URL); account creation, linking by verified e-mail, the groups mapping, the linked sign-ins
 * on the account page (and no password form for an account that has no password), logout; a refused sign-in shown as a page; what the admin's settings page shows.
 * The protocol's refusals are each asserted over HTTP in test/node/oidc-sign-in.test.ts.
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type LongboxServer, startServer } from '../support/dev-server';
import { longboxVars, startTestIdp, type TestIdp } from '../support/oidc-provider';
import { ADMIN, call, type Session, setupAdmin, signInContext } from './support/api';
import { describeWithChromium, launchBrowser, newContext } from './support/browser';

const READER = { username: 'reader', email: 'reader@example.test', password: 'a reader passphrase' };

describeWithChromium('single sign-on in the web app', () => {
  let idp: TestIdp;
  let server: LongboxServer;
  let browser: Browser;
  let admin: Session;

  beforeAll(async () => {
    idp = await startTestIdp({
      alice: { email: 'alice@example.test', emailVerified: true, groups: ['book-club'] },
      boss: { email: ADMIN.email, emailVerified: true, groups: ['longbox-admins'] },
      editor: { email: 'editor@example.test', emailVerified: true, groups: ['longbox-editors'] },
      mallory: { email: READER.email, emailVerified: false },
    });
    [server, browser] = await Promise.all([
      startServer({
        vars: longboxVars(idp, 'club', {
          DISPLAY_NAME: 'Book Club ID',
          AUTO_CREATE_USERS: 'true',
          GROUP_MAPPING: 'longbox-admins=role:admin, longbox-editors=role:maintainer',
        }),
      }),
      launchBrowser(),
    ]);
    await idp.registerClient([`${server.url}/api/v1/auth/oidc/club/callback`]);
    admin = await setupAdmin(server.url);
    await call(server.url, 'POST', '/users', { token: admin.token, json: READER });
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await idp?.close();
  });

  /** Every URL the page's frames were at, to check no token ever rode in one. */
  function trackUrls(page: Page): string[] {
    const urls: string[] = [];
    page.on('framenavigated', (frame) => urls.push(frame.url()));
    page.on('request', (request) => urls.push(request.url()));
    return urls;
  }

  /** From Longbox's login screen through the provider's sign-in page, as `login`. */
  async function signInThroughProvider(page: Page, login: string): Promise<void> {
    await page.getByRole('button', { name: 'Sign in with Book Club ID' }).click();
    await page.waitForURL(`${idp.issuer}/**`);
    await page.locator('input[name="login"]').fill(login);
    await page.locator('input[name="password"]').fill('the password at the provider');
    await page.getByRole('button', { name: 'Sign-in' }).click();
  }

  /**
   * Signed in and at `path`: the callback first sends the browser to `path`, which sends a visitor without a
   * session to the login screen, which picks the session up and comes back.
   */
  async function signedInAt(page: Page, path: string): Promise<void> {
    await page.waitForFunction(
      (expected) => location.pathname + location.search === expected && localStorage.getItem('longbox.session'),
      path,
    );
  }

  async function sessionCookie(context: BrowserContext) {
    return (await context.cookies(server.url)).find((cookie) => cookie.name === 'longbox_session');
  }

  /** The session's token lives in the HttpOnly cookie alone: nowhere a script of the page could read it. */
  async function sessionToken(page: Page): Promise<string> {
    const token = (await sessionCookie(page.context()))?.value ?? '';
    const readable = await page.evaluate(() => [
      document.cookie,
      JSON.stringify({ ...localStorage }),
      JSON.stringify({ ...sessionStorage }),
    ]);
    for (const place of readable) expect(place).not.toContain(token);
    return token;
  }

  it('signs a new person in through the provider, back where they were going, and out again', async () => {
    const context = await newContext(browser, 'desktop');
    const page = await context.newPage();
    const urls = trackUrls(page);
    await page.goto(`${server.url}/search`);
    await page.waitForURL(`${server.url}/login?next=${encodeURIComponent('/search')}`);
    await signInThroughProvider(page, 'alice');
    await signedInAt(page, '/search');

    const token = await sessionToken(page);
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(urls.some((url) => url.includes(token))).toBe(false);
    expect(urls.some((url) => url.startsWith(`${server.url}/api/v1/auth/oidc/club/callback?`))).toBe(true);
    expect(await sessionCookie(context)).toMatchObject({ value: token, httpOnly: true, sameSite: 'Strict' });

    await page.getByRole('link', { name: 'Account' }).click();
    await page.waitForURL(`${server.url}/account`);
    await page.getByText('alice · alice@example.test · reader').waitFor();
    const linked = page.locator('[data-linked-identities]');
    await linked.getByText('Book Club ID').waitFor();
    await linked.getByText('alice@example.test').waitFor();
    // The account single sign-on created has no password: no form asking for the current one.
    await page.locator('[data-no-password]').getByText('This account has no password').waitFor();
    expect(await page.getByRole('button', { name: 'Change password' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(`${server.url}/login`);
    expect(await sessionCookie(context)).toBeUndefined();
    await page.goto(`${server.url}/account`);
    await page.waitForURL(`${server.url}/login?next=${encodeURIComponent('/account')}`);
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    await context.close();
  });

  it('links an existing account by its verified address, maps groups to roles, and unlinks from the account page', async () => {
    const context = await newContext(browser, 'phone');
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await signInThroughProvider(page, 'boss');
    await signedInAt(page, '/');
    await page.goto(`${server.url}/account`);
    await page.getByText(`${ADMIN.username} · ${ADMIN.email} · admin`).waitFor();
    const linked = page.locator('[data-linked-identities]');
    await linked.getByText('Book Club ID').waitFor();
    // A linked account keeps its own password, and the form to change it.
    await page.getByRole('button', { name: 'Change password' }).waitFor();
    expect(await page.locator('[data-no-password]').count()).toBe(0);
    page.once('dialog', (dialog) => void dialog.accept());
    await linked.getByRole('button', { name: 'Unlink Book Club ID' }).click();
    await linked.getByText('No identity provider is linked').waitFor();
    expect(await call(server.url, 'GET', `/users/${admin.user.id}/identities`, { token: admin.token })).toEqual([]);
    await context.close();

    const editorContext = await newContext(browser, 'desktop');
    const editorPage = await editorContext.newPage();
    await editorPage.goto(`${server.url}/login`);
    await signInThroughProvider(editorPage, 'editor');
    await signedInAt(editorPage, '/');
    await editorPage.goto(`${server.url}/account`);
    await editorPage.getByText('editor · editor@example.test · maintainer').waitFor();
    await editorContext.close();
  });

  it('shows a refused sign-in as a page with the reason, and creates or changes nothing', async () => {
    const users = await call(server.url, 'GET', '/users', { token: admin.token });
    const context = await newContext(browser, 'desktop');
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    const callback = page.waitForResponse((response) => response.url().includes('/api/v1/auth/oidc/club/callback'));
    await signInThroughProvider(page, 'mallory');
    expect((await callback).status()).toBe(401);
    await page.getByText('has not verified the e-mail address reader@example.test').waitFor();
    expect(await page.getByRole('alert').textContent()).toMatch(/^Book Club ID has not verified/);
    expect(await sessionCookie(context)).toBeUndefined();
    expect(await call(server.url, 'GET', '/users', { token: admin.token })).toEqual(users);

    const forged = await page.goto(`${server.url}/api/v1/auth/oidc/club/callback?code=stolen&state=forged`);
    expect(forged?.status()).toBe(401);
    await page.getByText('This sign-in is unknown or was already used').waitFor();
    await page.getByRole('link', { name: 'Back to the login screen' }).click();
    await page.getByRole('button', { name: 'Sign in with Book Club ID' }).waitFor();
    await context.close();
  });

  it('shows the admin which providers are configured, with the redirect URI to register and no secret', async () => {
    const context = await newContext(browser, 'desktop');
    await signInContext(context, server.url, ADMIN.username, ADMIN.password);
    const page = await context.newPage();
    await page.goto(`${server.url}/admin/settings`);
    const section = page.locator('[data-sso-configuration]');
    await section.getByText('Book Club ID').waitFor();
    await section.getByText(`${server.url}/api/v1/auth/oidc/club/callback`).waitFor();
    await section.getByText('longbox-admins → role:admin, longbox-editors → role:maintainer').waitFor();
    expect(await page.content()).not.toContain(idp.clientSecret);
    await context.close();
  });
});
