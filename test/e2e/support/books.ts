/** Book files for browser tests, generated like every other fixture (test/fixtures). */
import { jpeg } from '../../fixtures/images';
import { buildZip } from '../../fixtures/zip-writer';

/** A CBZ of `pages` JPEG pages of width×height; `wide` page indexes are twice as wide (spreads). */
export function comicBook(pages: number, options: { width?: number; height?: number; wide?: number[] } = {}) {
  const { width = 400, height = 600, wide = [] } = options;
  return buildZip(
    Array.from({ length: pages }, (_, index) => ({
      name: `page-${String(index + 1).padStart(3, '0')}.jpg`,
      data: jpeg(wide.includes(index) ? width * 2 : width, height, { seed: index + 1 }),
    })),
  );
}
