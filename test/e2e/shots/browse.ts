/** Screenshots of browsing: home, the series grid, a series, a book, search. */
import { imagesLoaded, type Shot } from '../support/shots';

export const shots: Shot[] = [
  {
    name: 'home',
    path: () => '/',
    ready: async (page) => {
      await page.locator('[data-row="keep-reading"] a[data-book-id]').first().waitFor();
      await page.locator('[data-row="recently-updated"] a[data-series-id]').first().waitFor();
      await imagesLoaded(page);
    },
  },
  {
    name: 'home-dark',
    colorScheme: 'dark',
    viewportOnly: true,
    path: () => '/',
    ready: async (page) => {
      await page.locator('[data-row="recently-added"] a[data-book-id]').first().waitFor();
      await imagesLoaded(page);
    },
  },
  {
    name: 'series-grid',
    path: ({ showcase }) => `/libraries/${showcase.libraryId}`,
    ready: async (page) => {
      await page.locator('a[data-series-id]').first().waitFor();
      await imagesLoaded(page);
    },
  },
  {
    name: 'series',
    path: ({ showcase }) => `/series/${showcase.series['Harbor Lights']?.id}`,
    ready: async (page) => {
      await page.locator('[data-books] a[data-book-id]').first().waitFor();
      await imagesLoaded(page);
    },
  },
  {
    name: 'book',
    path: ({ showcase }) => `/books/${showcase.books['Harbor Lights 001']?.id}`,
    ready: async (page) => {
      await page.locator('[data-progress]').waitFor();
      await imagesLoaded(page);
    },
  },
  {
    name: 'search',
    path: () => '/search?q=harbor',
    ready: async (page) => {
      await page.locator('[data-results="series"] a').first().waitFor();
      await imagesLoaded(page);
    },
  },
];
