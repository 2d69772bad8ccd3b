import { describe, expect, it } from 'vitest';
import { parseCron } from './cron';

const parsed = (expression: string) => {
  const result = parseCron(expression);
  if (!result.ok) throw new Error(result.error);
  return result.schedule;
};
const sorted = (values: ReadonlySet<number>) => [...values].sort((a, b) => a - b);
const errorOf = (expression: string) => {
  const result = parseCron(expression);
  return result.ok ? null : result.error;
};

describe('cron expressions for scanning_config.cron_schedule (API.md §2 Library)', () => {
  it('expands values, ranges, steps and lists', () => {
    const schedule = parsed('*/15 9-17 1,15 */3 MON-FRI');
    expect(sorted(schedule.minutes)).toEqual([0, 15, 30, 45]);
    expect(sorted(schedule.hours)).toEqual([9, 10, 11, 12, 13, 14, 15, 16, 17]);
    expect(sorted(schedule.daysOfMonth)).toEqual([1, 15]);
    expect(sorted(schedule.months)).toEqual([1, 4, 7, 10]);
    expect(sorted(schedule.daysOfWeek)).toEqual([1, 2, 3, 4, 5]);
    expect(schedule.anyDayOfMonth).toBe(false);
    expect(schedule.anyDayOfWeek).toBe(false);
  });

  it('takes stepped ranges, start/step, names in any case, and 7 as Sunday', () => {
    const schedule = parsed('10-40/10 5/6 * jan,Jul 7');
    expect(sorted(schedule.minutes)).toEqual([10, 20, 30, 40]);
    expect(sorted(schedule.hours)).toEqual([5, 11, 17, 23]);
    expect(sorted(schedule.months)).toEqual([1, 7]);
    expect(sorted(schedule.daysOfWeek)).toEqual([0]);
    expect(schedule.anyDayOfMonth).toBe(true);
  });

  it('accepts macros and extra whitespace', () => {
    expect(sorted(parsed('@daily').hours)).toEqual([0]);
    expect(sorted(parsed('@weekly').daysOfWeek)).toEqual([0]);
    expect(parsed('  0   3 * * *  ').minutes.size).toBe(1);
  });

  it.each([
    ['', 'expected 5 fields'],
    ['* * * *', 'expected 5 fields'],
    ['0 0 * * * *', 'expected 5 fields'],
    ['60 * * * *', 'minute: 60 is outside 0-59'],
    ['* 24 * * *', 'hour: 24 is outside 0-23'],
    ['* * 0 * *', 'day-of-month: 0 is outside 1-31'],
    ['* * * 13 *', 'month: 13 is outside 1-12'],
    ['* * * * 8', 'day-of-week: 8 is outside 0-7'],
    ['*/0 * * * *', 'step "0" must be a positive integer'],
    ['5-1 * * * *', 'runs backwards'],
    ['1,,2 * * * *', 'empty list item'],
    ['a * * * *', '"a" is not a number'],
    ['1-2-3 * * * *', 'bad range'],
    ['*/5/2 * * * *', 'more than one "/"'],
    ['@often', 'expected 5 fields'],
  ])('rejects %j (%s)', (expression, message) => {
    expect(errorOf(expression)).toContain(message);
  });
});
