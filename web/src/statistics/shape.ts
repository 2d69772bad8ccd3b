/**
 * The Statistics screens' data shaping: what `GET /reading-stats` answers (only the periods that hold reading,
 * each keyed by its first local day) turned into what the charts draw — a year's calendar of days, every week
 * or month of the year with the empty ones as zeros, the longest run of reading days — and the words for
 * durations. Pure functions over local dates: the screen asks the API in the browser's time zone
 * (`tz`, DECISIONS.md §Reading statistics), so the API's day keys and `Date`'s local calendar agree.
 */
import type { ReadingCoverage, ReadingDuration } from '../api/types';
import { t } from '../i18n';

export type PeriodGranularity = 'week' | 'month';

/** The measures every period, device, series… carries (API.md §Reading statistics). */
export interface Measures {
  duration: ReadingDuration;
  pagesRead: number;
  sessions: number;
  books: number;
  booksFinished: number;
}

export interface Period extends Measures {
  /** First local day of the period, YYYY-MM-DD. */
  bucket: string;
}

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
const NONE: Measures = {
  duration: { measuredMs: 0, inferredMs: 0, totalMs: 0 },
  pagesRead: 0,
  sessions: 0,
  books: 0,
  booksFinished: 0,
};

/** A local date as the API keys it: YYYY-MM-DD. */
export function dayKey(date: Date): string {
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${date.getFullYear()}-${month}-${day}`;
}

/** Local midnight of a YYYY-MM-DD key. */
export function dayOf(key: string): Date {
  const [year, month, day] = key.split('-').map(Number);
  return new Date(year ?? 1970, (month ?? 1) - 1, day ?? 1);
}

/** The window of a calendar year in the browser's time zone: local midnight of 1 January to that of the next. */
export function yearWindow(year: number): { from: string; to: string } {
  return { from: new Date(year, 0, 1).toISOString(), to: new Date(year + 1, 0, 1).toISOString() };
}

/** The browser's IANA time zone, which the API counts days, weeks and months in. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** The years that hold recorded reading, newest first (none for someone who has read nothing yet). */
export function readingYears(coverage: ReadingCoverage): number[] {
  if (!coverage.firstReadAt || !coverage.lastReadAt) return [];
  const first = new Date(coverage.firstReadAt).getFullYear();
  const last = new Date(coverage.lastReadAt).getFullYear();
  const years: number[] = [];
  for (let year = Math.max(first, last); year >= Math.min(first, last); year--) years.push(year);
  return years;
}

export interface CalendarDay extends Measures {
  day: string;
  /** 0 = Monday … 6 = Sunday (the API's weeks start on Monday). */
  weekday: number;
  /** The calendar's column: the week of the year, 0 for the week holding 1 January. */
  week: number;
  /** 0: no reading; 1–4: a quarter of the busiest day's time each (a day read without a measured or inferred time is 1). */
  level: number;
}

export interface Calendar {
  year: number;
  days: CalendarDay[];
  weeks: number;
  /** Each month's first column, for the labels above the grid. */
  months: { month: number; week: number }[];
  /** The busiest day's time, which level 4 stands for. */
  maxMs: number;
}

/** Every day of `year` in the GitHub-style grid (columns are weeks, rows weekdays), with its reading. */
export function calendarOf(year: number, periods: readonly Period[]): Calendar {
  const byDay = new Map(periods.map((period) => [period.bucket, period]));
  const firstWeekday = (new Date(year, 0, 1).getDay() + 6) % 7;
  const days: CalendarDay[] = [];
  const months: Calendar['months'] = [];
  for (let index = 0; ; index++) {
    const date = new Date(year, 0, 1 + index);
    if (date.getFullYear() !== year) break;
    const week = Math.floor((index + firstWeekday) / 7);
    if (date.getDate() === 1) months.push({ month: date.getMonth(), week });
    const key = dayKey(date);
    const { bucket: _bucket, ...measures } = byDay.get(key) ?? { bucket: key, ...NONE };
    days.push({ day: key, weekday: (date.getDay() + 6) % 7, week, level: 0, ...measures });
  }
  const maxMs = Math.max(0, ...days.map((day) => day.duration.totalMs));
  for (const day of days) day.level = levelOf(day, maxMs);
  return { year, days, weeks: (days.at(-1)?.week ?? 0) + 1, months, maxMs };
}

function levelOf(day: Measures, maxMs: number): number {
  if (day.sessions === 0 && day.duration.totalMs === 0) return 0;
  if (maxMs === 0 || day.duration.totalMs === 0) return 1;
  return Math.min(4, Math.max(1, Math.ceil((day.duration.totalMs / maxMs) * 4)));
}

/** The longest run of consecutive days with reading, the earliest of equal runs; null when no day has any. */
export function longestStreak(days: readonly CalendarDay[]): { days: number; from: string; to: string } | null {
  let best: { days: number; from: string; to: string } | null = null;
  let start: CalendarDay | null = null;
  let length = 0;
  for (const day of days) {
    if (day.level === 0) {
      start = null;
      length = 0;
      continue;
    }
    start ??= day;
    length++;
    if (!best || length > best.days) best = { days: length, from: start.day, to: day.day };
  }
  return best;
}

/** The day with the most reading time, the earliest of equal ones; null when no day has any time. */
export function busiestDay(days: readonly CalendarDay[]): CalendarDay | null {
  let best: CalendarDay | null = null;
  for (const day of days) if (day.duration.totalMs > (best?.duration.totalMs ?? 0)) best = day;
  return best;
}

/**
 * Every week (by its Monday) or month that holds a day of the window `from`..`to` (exclusive), as the API keys
 * them: a year's weeks start with the Monday of the week holding 1 January, which may be in December.
 */
export function periodKeysBetween(from: Date, to: Date, granularity: PeriodGranularity): string[] {
  const next = (date: Date) =>
    granularity === 'month'
      ? new Date(date.getFullYear(), date.getMonth() + 1, 1)
      : new Date(date.getFullYear(), date.getMonth(), date.getDate() + 7);
  let date =
    granularity === 'month'
      ? new Date(from.getFullYear(), from.getMonth(), 1)
      : new Date(from.getFullYear(), from.getMonth(), from.getDate() - ((from.getDay() + 6) % 7));
  const keys: string[] = [];
  for (; date < to; date = next(date)) keys.push(dayKey(date));
  return keys;
}

/** The window's periods, the empty ones as zeros, in order (a period the API has outside them is kept too). */
export function periodsBetween(
  from: Date,
  to: Date,
  granularity: PeriodGranularity,
  periods: readonly Period[],
): Period[] {
  const byKey = new Map(periods.map((period) => [period.bucket, period]));
  const keys = [...new Set([...periodKeysBetween(from, to, granularity), ...byKey.keys()])].sort();
  return keys.map((bucket) => byKey.get(bucket) ?? { bucket, ...NONE });
}

/** A calendar year's periods (periodsBetween over 1 January to 1 January). */
export function periodsOfYear(year: number, granularity: PeriodGranularity, periods: readonly Period[]): Period[] {
  return periodsBetween(new Date(year, 0, 1), new Date(year + 1, 0, 1), granularity, periods);
}

const monthAndYear = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric' });
const shortDay = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const longDay = new Intl.DateTimeFormat(undefined, { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });

/** "January 2026" for a month's key, "Week of Mar 2" for a week's: the tables' row headings. */
export function periodName(bucket: string, granularity: PeriodGranularity): string {
  return granularity === 'month'
    ? monthAndYear.format(dayOf(bucket))
    : t('stats.weekOf', { day: shortDay.format(dayOf(bucket)) });
}

/** "Tuesday, March 3, 2026" */
export function dayName(key: string): string {
  return longDay.format(dayOf(key));
}

/** "Mar 3" */
export function shortDayName(key: string): string {
  return shortDay.format(dayOf(key));
}

/** "2 h 05 min", "45 min", "0 min"; a few seconds read say "under a minute" rather than nothing. */
export function formatDuration(ms: number): string {
  if (ms > 0 && ms < MINUTE_MS) return t('stats.underAMinute');
  const minutes = Math.round(ms / MINUTE_MS);
  const hours = Math.floor(minutes / 60);
  if (hours === 0) return t('stats.minutes', { minutes });
  return t('stats.hoursMinutes', { hours, minutes: String(minutes % 60).padStart(2, '0') });
}

/** Hours to one decimal, for a chart's bars. */
export function hours(ms: number): number {
  return Math.round((ms / HOUR_MS) * 10) / 10;
}

/** A count in the browser's language ("1,234"). */
export function formatCount(value: number): string {
  return value.toLocaleString();
}
