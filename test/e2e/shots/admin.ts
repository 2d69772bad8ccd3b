/** Screenshots of the administration screens. */
import type { Shot } from '../support/shots';

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
