/** Screenshots of the administration screens. */
import type { Page } from 'playwright-core';
import type { Shot } from '../support/shots';

/** The showcase has only its admin: a reader to share with, made through the form once per server. */
async function ensureReader(page: Page): Promise<void> {
  await page.getByRole('cell', { name: 'admin', exact: true }).first().waitFor();
  if ((await page.getByRole('cell', { name: 'kid', exact: true }).count()) > 0) return;
  await page.getByRole('button', { name: 'New user' }).click();
  await page.getByLabel('Username', { exact: true }).fill('kid');
  await page.getByLabel('Email', { exact: true }).fill('kid@example.test');
  await page.getByLabel('Password', { exact: true }).fill('kid passphrase 1');
  await page.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('cell', { name: 'kid', exact: true }).waitFor();
}

export const shots: Shot[] = [
  {
    name: 'admin-libraries',
    path: () => '/admin/libraries',
    ready: async (page) => {
      await page.locator('[data-library="Comics"] [data-scan-status]').waitFor();
    },
  },
  {
    name: 'admin-api-keys',
    path: () => '/admin/api-keys',
    ready: async (page) => {
      await page.getByLabel('Name', { exact: true }).fill('Tablet');
      await page.getByRole('button', { name: 'Create' }).click();
      await page.locator('[data-created-key] code').waitFor();
      // The list reloads after the key is created: the shot shows it listed.
      await page.getByRole('cell', { name: 'Tablet', exact: true }).first().waitFor();
    },
  },
  {
    name: 'admin-users',
    path: () => '/admin/users',
    ready: async (page) => {
      await page.getByRole('cell', { name: 'admin', exact: true }).first().waitFor();
    },
  },
  {
    name: 'admin-sharing-tags',
    path: () => '/admin/sharing-tags',
    ready: async (page) => {
      const form = page.getByRole('form', { name: 'New sharing tag' });
      await form.waitFor();
      await page
        .locator('table')
        .or(page.getByText(/No sharing tags yet/))
        .first()
        .waitFor();
      if ((await page.getByRole('cell', { name: 'Mature', exact: true }).count()) === 0) {
        await form.getByLabel('Name', { exact: true }).fill('Mature');
        await form.getByLabel('Description (optional)').fill('Kept from the kids’ accounts');
        await form.getByRole('button', { name: 'Create' }).click();
      }
      await page.getByRole('cell', { name: 'Mature', exact: true }).waitFor();
    },
  },
  {
    name: 'admin-user-access',
    path: () => '/admin/users',
    ready: async (page) => {
      await ensureReader(page);
      await page
        .getByRole('row')
        .filter({ hasText: 'kid@example.test' })
        .getByRole('button', { name: 'Access' })
        .click();
      const form = page.getByRole('form', { name: 'Access of kid' });
      await form.getByLabel('All libraries').uncheck();
      await form.getByRole('checkbox').nth(1).check();
      await form.getByLabel('Age restriction').selectOption('ALLOW_ONLY');
      await form.getByLabel('Age', { exact: true }).fill('12');
    },
    viewportOnly: true,
  },
  {
    name: 'admin-settings',
    path: () => '/admin/settings',
    ready: async (page) => {
      await page.locator('[data-setting]').first().waitFor();
    },
    viewportOnly: true,
  },
  {
    name: 'admin-tasks',
    path: () => '/admin/tasks',
    ready: async (page) => {
      await page.locator('[data-task-status]').first().waitFor();
    },
    viewportOnly: true,
  },
  {
    name: 'admin-health',
    path: () => '/admin/health',
    ready: async (page) => {
      await page.locator('[data-health]').waitFor();
    },
  },
];
