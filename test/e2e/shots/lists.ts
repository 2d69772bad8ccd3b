/** Screenshots of collections and read lists (test/e2e/support/showcase.ts seedLists makes them). */
import { imagesLoaded, type Shot } from '../support/shots';

export const shots: Shot[] = [
  {
    name: 'collections',
    path: () => '/collections',
    ready: async (page) => {
      await page.locator('[data-collections] a').nth(1).waitFor();
      await imagesLoaded(page);
    },
  },
  {
    name: 'read-list',
    path: ({ readListId }) => `/readlists/${readListId}`,
    ready: async (page) => {
      await page.locator('[data-read-list-books] li').nth(4).waitFor();
      await imagesLoaded(page);
    },
  },
];
