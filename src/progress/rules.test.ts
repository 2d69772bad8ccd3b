import { describe, expect, it } from 'vitest';
import {
  completesAtFraction,
  completesAtPage,
  fractionAtPage,
  isPageInRange,
  isReflowable,
  lastPage,
  pageAtFraction,
  progressFraction,
  readFraction,
} from './rules';

const comic = { fileFormat: 'cbz', epubLayout: null, pageCount: 20 } as const;
const reflowable = { fileFormat: 'epub', epubLayout: 'reflowable', pageCount: 300 } as const;
const imageEpub = { fileFormat: 'epub', epubLayout: 'image', pageCount: 12 } as const;

describe('reading progress rules (src/progress/rules.ts)', () => {
  it('reads an EPUB as flowing text unless its pages are images; comics and PDFs never', () => {
    expect(isReflowable(reflowable)).toBe(true);
    expect(isReflowable({ fileFormat: 'epub', epubLayout: null })).toBe(true);
    expect(isReflowable(imageEpub)).toBe(false);
    expect(isReflowable(comic)).toBe(false);
    expect(isReflowable({ fileFormat: 'pdf', epubLayout: null })).toBe(false);
  });

  it('accepts whole pages from 1 to the page count only', () => {
    expect([1, 10, 20].map((page) => isPageInRange(page, 20))).toEqual([true, true, true]);
    expect([0, 21, -1, 2.5, Number.NaN].map((page) => isPageInRange(page, 20))).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(isPageInRange(1, 0)).toBe(false);
  });

  it('puts a fraction on the page that holds it, within 1..pageCount (1 for a book not analysed yet)', () => {
    expect(pageAtFraction(0, 300)).toBe(1);
    expect(pageAtFraction(0.5, 300)).toBe(150);
    expect(pageAtFraction(0.501, 300)).toBe(151);
    expect(pageAtFraction(1, 300)).toBe(300);
    expect(pageAtFraction(1.5, 300)).toBe(300);
    expect(pageAtFraction(0.7, 0)).toBe(1);
    expect(lastPage(0)).toBe(1);
    expect(lastPage(42)).toBe(42);
  });

  it('counts a page as the fraction read up to its end', () => {
    expect(fractionAtPage(5, 20)).toBe(0.25);
    expect(fractionAtPage(20, 20)).toBe(1);
    expect(fractionAtPage(1, 0)).toBe(1);
  });

  it('completes a book on its last page, and a text at its end (with the slack a reader needs)', () => {
    expect(completesAtPage(19, 20)).toBe(false);
    expect(completesAtPage(20, 20)).toBe(true);
    expect(completesAtPage(1, 0)).toBe(true);
    expect(completesAtFraction(0.999)).toBe(false);
    expect(completesAtFraction(1)).toBe(true);
    expect(completesAtFraction(0.996, 0.005)).toBe(true);
    expect(completesAtFraction(0.99, 0.005)).toBe(false);
  });

  it('stores the sent fraction for a reflowable EPUB and the page fraction for everything else', () => {
    expect(progressFraction(reflowable, 150, 0.4)).toBe(0.4);
    expect(progressFraction(reflowable, 150)).toBe(0.5);
    expect(progressFraction(comic, 5, 0.9)).toBe(0.25);
    expect(progressFraction(imageEpub, 6, 0.9)).toBe(0.5);
  });

  it('shows a progress bar full when completed, else the stored percentage, else the page', () => {
    expect(readFraction(null, 20)).toBe(0);
    expect(readFraction({ completed: true, currentPage: 3, progressPercentage: 0.1 }, 20)).toBe(1);
    expect(readFraction({ completed: false, currentPage: 3, progressPercentage: 0.42 }, 20)).toBe(0.42);
    expect(readFraction({ completed: false, currentPage: 5, progressPercentage: null }, 20)).toBe(0.25);
    expect(readFraction({ completed: false, currentPage: 5, progressPercentage: null }, 0)).toBe(0);
  });
});
