/**
 * Accounts and fit-and-finish in a real Chromium (issue 12 points 1 and "fit and finish"): an expired
 * session goes to the login screen and back to where the user was; registration when the setting allows
 * it; changing the password; a reader's own API keys; keyboard access (skip link); light and dark themes.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  ADMIN,
  call,
  createLibrary,
  scanAndWait,
  type Session,
  setupAdmin,
  signInContext,
  uploadBook,
} from './support/api';
import { comicBook } from './support/books';
import { describeWithChromium, launchBrowser, newContext } from './support/browser';
import { type LongboxServer, startServer } from '../support/dev-server';

describeWithChromium('accounts in the web app', () => {
  let server: LongboxServer;
  let browser: Browser;
  let admin: Session;
  let seriesId: string;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
    admin = await setupAdmin(server.url);
    const library = await createLibrary(server.url, admin.token, 'Comics', 'comics');
    await uploadBook(server.url, admin.token, library.id, 'Alpha/Alpha 001.cbz', comicBook(3));
    await scanAndWait(server.url, admin.token, library.id);
    seriesId = (await call(server.url, 'GET', '/series', { token: admin.token })).data[0].id;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('sends an expired session to the login screen, then back to the page the user was opening', async () => {
    const context = await newContext(browser, 'phone');
    const session = await signInContext(context, server.url, ADMIN.username, ADMIN.password);
    const page = await context.newPage();
    await page.goto(`${server.url}/libraries`);
    await page.locator('a[data-library-id]').first().waitFor();

    await call(server.url, 'POST', '/auth/logout', { token: session.token }); // the session ends elsewhere
    await page.goto(`${server.url}/series/${seriesId}`);
    await page.waitForURL(`${server.url}/login?next=${encodeURIComponent(`/series/${seriesId}`)}`);
    await page.getByText('Your session has expired').waitFor();
    await page.getByLabel('Username or email').fill(ADMIN.username);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${server.url}/series/${seriesId}`);
    await page.getByRole('heading', { name: 'Alpha' }).waitFor();
    await context.close();
  });

  it('offers registration only when the setting allows it, and the new reader can change their password', async () => {
    const context = await newContext(browser, 'phone');
    const page = await context.newPage();
    await page.goto(`${server.url}/login`);
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    expect(await page.getByRole('link', { name: 'Create an account' }).count()).toBe(0);

    await call(server.url, 'PUT', '/admin/settings/auth.registration_enabled', {
      token: admin.token,
      json: { value: true },
    });
    await page.reload();
    // On a slow network (every script fetched from now on takes a moment longer), a fast typist starts
    // the moment they have clicked: what they type must land in the registration form and stay there,
    // not in the login form still on screen while a lazily loaded screen arrives.
    await page.route('**/assets/*.js', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      await route.continue();
    });
    await page.getByRole('link', { name: 'Create an account' }).click();
    const first = await page.locator('main input').first().elementHandle();
    await first!.fill('newreader');
    await page.getByLabel('Email').fill('newreader@example.test');
    await page.getByLabel('Password', { exact: true }).fill('first secret 123');
    await page.getByLabel('Repeat password').fill('first secret 123');
    await page.waitForLoadState('networkidle');
    const typed = await first!.evaluate((input: HTMLInputElement) => [input.isConnected, input.name, input.value]);
    expect(typed).toEqual([true, 'username', 'newreader']);
    await page.unrouteAll();
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.waitForURL(/\/login\?registered=/);
    await page.getByLabel('Username or email').fill('newreader');
    await page.getByLabel('Password').fill('first secret 123');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${server.url}/`);
    expect(await page.getByRole('link', { name: 'Admin' }).count()).toBe(0); // a reader, not an admin

    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByLabel('Current password').fill('wrong password');
    await page.getByLabel('New password').fill('second secret 456');
    await page.getByLabel('Repeat password').fill('second secret 456');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('alert').getByText('The current password is wrong').waitFor();
    await page.getByLabel('Current password').fill('first secret 123');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByText('Password changed').waitFor();
    const response = await fetch(`${server.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'newreader', password: 'second secret 456' }),
    });
    expect(response.status).toBe(200);

    // A reader makes a key for their e-reader on the Account screen (README "Reader apps": one key per
    // device), sees its secret once, and the key signs in to the API with the reader's own permissions.
    const keys = page.getByRole('region', { name: 'API keys' });
    await keys.getByLabel('Name').fill('Kobo Libra');
    await keys.getByRole('button', { name: 'Create' }).click();
    const secret = (await keys.locator('[data-created-key] code').textContent()) as string;
    expect(secret).toMatch(/^lbx_/);
    await keys.getByRole('cell', { name: 'Kobo Libra' }).waitFor();
    const asKey = await fetch(`${server.url}/api/v1/auth/me`, { headers: { 'X-API-Key': secret } });
    expect(asKey.status).toBe(200);
    expect((await asKey.json()).username).toBe('newreader');
    await context.close();
  });

  it('is usable from the keyboard and follows the light/dark choice', async () => {
    const context = await newContext(browser, 'desktop', { colorScheme: 'dark' });
    await signInContext(context, server.url, ADMIN.username, ADMIN.password);
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await page.locator('[data-row="recently-added"] a[data-book-id]').first().waitFor();

    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    // From the main content, Tab reaches the first book card; Enter opens it.
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() =>
      (document.activeElement as HTMLAnchorElement | null)?.getAttribute('href'),
    );
    expect(focused).toMatch(/^\/books\//);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/books\//);

    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await background()).toBe('rgb(20, 22, 28)');
    await page.getByLabel('Theme').selectOption('light');
    expect(await background()).toBe('rgb(246, 247, 249)');
    await page.reload();
    expect(await background()).toBe('rgb(246, 247, 249)'); // remembered
    await context.close();
  });
});
