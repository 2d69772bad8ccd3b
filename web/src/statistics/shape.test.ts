/**
 * The Statistics screens' data shaping (issue 35 point 3): the API's periods (only those with reading, keyed by
 * their first local day) become a year's calendar grid, every week or month of a window, a streak and a busiest
 * day; durations read as people say them. Written in local dates, so they hold in any time zone the tests run in.
 */
import { describe, expect, it } from 'vitest';
import {
  busiestDay,
  calendarOf,
  dayKey,
  formatDuration,
  hours,
  longestStreak,
  type Period,
  periodKeysBetween,
  periodsBetween,
  periodsOfYear,
  readingYears,
  yearWindow,
} from './shape';

const period = (bucket: string, totalMs: number, extra: Partial<Period> = {}): Period => ({
  bucket,
  duration: { measuredMs: totalMs, inferredMs: 0, totalMs },
  pagesRead: 0,
  sessions: totalMs > 0 ? 1 : 0,
  books: 1,
  booksFinished: 0,
  ...extra,
});
const MINUTE = 60_000;

describe('the window of a year', () => {
  it('runs from local midnight of 1 January to that of the next', () => {
    const { from, to } = yearWindow(2026);
    expect(new Date(from)).toEqual(new Date(2026, 0, 1));
    expect(new Date(to)).toEqual(new Date(2027, 0, 1));
  });

  it('offers the years between the first and the last reading, newest first, and none before any', () => {
    expect(readingYears({ firstReadAt: null, lastReadAt: null })).toEqual([]);
    expect(
      readingYears({
        firstReadAt: new Date(2024, 2, 5, 12).toISOString(),
        lastReadAt: new Date(2026, 0, 2, 12).toISOString(),
      }),
    ).toEqual([2026, 2025, 2024]);
  });
});

describe('the calendar of a year', () => {
  it('lays every day out in weeks from Monday, 1 January in the first column', () => {
    const calendar = calendarOf(2026, []);
    expect(calendar.days).toHaveLength(365);
    // 1 January 2026 is a Thursday: the fourth row of the first column.
    expect(calendar.days[0]).toMatchObject({ day: '2026-01-01', weekday: 3, week: 0, level: 0 });
    expect(calendar.days.find((day) => day.day === '2026-01-05')).toMatchObject({ weekday: 0, week: 1 });
    expect(calendar.days.at(-1)).toMatchObject({ day: '2026-12-31', weekday: 3, week: 52 });
    expect(calendar.weeks).toBe(53);
    expect(calendar.months.map((month) => month.month)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(calendar.months[1]).toEqual({ month: 1, week: 4 });
    expect(calendarOf(2024, []).days).toHaveLength(366);
  });

  it('shades each day by its share of the busiest day, a day read without a time the lightest', () => {
    const calendar = calendarOf(2026, [
      period('2026-03-02', 80 * MINUTE),
      period('2026-03-03', 20 * MINUTE),
      period('2026-03-04', 41 * MINUTE),
      period('2026-03-05', 0, { sessions: 2, pagesRead: 12 }),
    ]);
    const level = (day: string) => calendar.days.find((entry) => entry.day === day)?.level;
    expect(calendar.maxMs).toBe(80 * MINUTE);
    expect([level('2026-03-01'), level('2026-03-02'), level('2026-03-03'), level('2026-03-04')]).toEqual([0, 4, 1, 3]);
    expect(level('2026-03-05')).toBe(1);
    expect(calendar.days.find((entry) => entry.day === '2026-03-05')?.pagesRead).toBe(12);
  });

  it('finds the longest run of reading days (the first of equal runs) and the busiest day', () => {
    const calendar = calendarOf(2026, [
      period('2026-01-30', 5 * MINUTE),
      period('2026-01-31', 5 * MINUTE),
      period('2026-02-01', 5 * MINUTE),
      period('2026-02-10', 50 * MINUTE),
      period('2026-02-11', 50 * MINUTE),
      period('2026-02-12', 5 * MINUTE),
      period('2026-06-01', 50 * MINUTE),
    ]);
    expect(longestStreak(calendar.days)).toEqual({ days: 3, from: '2026-01-30', to: '2026-02-01' });
    expect(busiestDay(calendar.days)?.day).toBe('2026-02-10');
    const empty = calendarOf(2026, []);
    expect(longestStreak(empty.days)).toBeNull();
    expect(busiestDay(empty.days)).toBeNull();
  });
});

describe('the periods of a window', () => {
  it("names a year's weeks by their Mondays, the first one in December when the year starts midweek", () => {
    const weeks = periodKeysBetween(new Date(2026, 0, 1), new Date(2027, 0, 1), 'week');
    expect(weeks[0]).toBe('2025-12-29');
    expect(weeks.at(-1)).toBe('2026-12-28');
    expect(weeks).toHaveLength(53);
    expect(new Set(weeks.map((key) => new Date(`${key}T12:00`).getDay()))).toEqual(new Set([1]));
  });

  it('fills the periods without reading with zeros, in order, and keeps what the API sent', () => {
    const months = periodsOfYear(2026, 'month', [period('2026-03-01', 90 * MINUTE, { booksFinished: 2 })]);
    expect(months.map((month) => month.bucket)).toEqual(
      Array.from({ length: 12 }, (_, index) => dayKey(new Date(2026, index, 1))),
    );
    expect(months[2]).toMatchObject({ bucket: '2026-03-01', booksFinished: 2, duration: { totalMs: 90 * MINUTE } });
    expect(months[3]).toMatchObject({ booksFinished: 0, pagesRead: 0, duration: { totalMs: 0 } });
  });

  it('covers a window that is not a calendar year month by month', () => {
    const from = new Date(2025, 10, 28, 15, 30);
    const to = new Date(2026, 10, 28, 15, 30);
    const months = periodsBetween(from, to, 'month', []);
    expect(months).toHaveLength(13);
    expect(months[0]?.bucket).toBe('2025-11-01');
    expect(months.at(-1)?.bucket).toBe('2026-11-01');
  });
});

describe('durations in words', () => {
  it('says hours and minutes, minutes alone, and a few seconds as under a minute', () => {
    expect(formatDuration(0)).toBe('0 min');
    expect(formatDuration(30_000)).toBe('under a minute');
    expect(formatDuration(45 * MINUTE)).toBe('45 min');
    expect(formatDuration(125 * MINUTE)).toBe('2 h 05 min');
    expect(formatDuration(59.6 * MINUTE)).toBe('1 h 00 min');
    expect(hours(90 * MINUTE)).toBe(1.5);
  });
});
