/**
 * The words under the Statistics screens' charts (issue 35): a window over two years names each year where it
 * starts, so the admin's last 12 months — November to November — never shows the same month twice unexplained.
 * Locale-neutral: the labels are checked for their years and for being told apart, not for their spelling.
 */
import { describe, expect, it } from 'vitest';
import { allLabels, periodAxis } from './period-axis';
import { periodKeysBetween } from './shape';

const hasYear = (label: string | null, year: number) => (label ?? '').includes(String(year));

describe('the labels of a window of periods', () => {
  it('November to November: the year on the first month and on January, the two Novembers told apart', () => {
    const months = periodKeysBetween(new Date(2025, 10, 28), new Date(2026, 10, 28), 'month');
    expect(months).toHaveLength(13);
    const labels = allLabels(periodAxis(months, 'month'), months.length);
    expect(new Set(labels).size).toBe(13);
    const withYear = labels.flatMap((label, index) => (/\d{4}/.test(label) ? [index] : []));
    expect(withYear).toEqual([0, 2]);
    expect(hasYear(labels[0]!, 2025)).toBe(true);
    expect(hasYear(labels[2]!, 2026)).toBe(true);
  });

  it('carries the year on a label after a change even when the labels between were left out for room', () => {
    const months = periodKeysBetween(new Date(2025, 10, 1), new Date(2026, 10, 1), 'month');
    const axis = periodAxis(months, 'month');
    // November 2025 written, then nothing until March 2026: March says its year.
    expect(hasYear(axis(4, 0), 2026)).toBe(true);
    // Written after March 2026, May does not.
    expect(axis(6, 4)).not.toMatch(/\d{4}/);
  });

  it('a year of weeks offers a label only where a month begins, the first (in December before) with its year', () => {
    const weeks = periodKeysBetween(new Date(2026, 0, 1), new Date(2027, 0, 1), 'week');
    expect(weeks[0]).toBe('2025-12-29');
    const labels = allLabels(periodAxis(weeks, 'week'), weeks.length);
    const written = labels.filter((label) => label !== '');
    expect(written).toHaveLength(13);
    expect(new Set(written).size).toBe(13);
    expect(hasYear(labels[0]!, 2025)).toBe(true);
    expect(hasYear(labels[1]!, 2026)).toBe(true);
    expect(labels.slice(2).filter((label) => /\d{4}/.test(label))).toEqual([]);
  });
});
