/**
 * The words under a chart of periods (and above the calendar's columns): "Nov", "Mar 2". A window can hold two
 * years — the admin's last 12 months run from this month last year to this month, a year's first week starts in
 * December — so a label carries its year ("Nov 2025", "Dec 29, 2025") where it is the first written or where the
 * year differs from the last label written: the same month twice is never left unexplained. The Statistics
 * screen and Admin → Reading label alike because both go through here.
 */
import { dayOf, type PeriodGranularity } from './shape';

/**
 * The label of period `index`, given the index of the last label written before it (null when it would be the
 * first); null where the axis offers none: a year of weeks has room for a label only where a month begins.
 */
export type AxisLabel = (index: number, previous: number | null) => string | null;

const monthName = new Intl.DateTimeFormat(undefined, { month: 'short' });
const monthAndYear = new Intl.DateTimeFormat(undefined, { month: 'short', year: 'numeric' });
const shortDay = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const shortDayAndYear = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', year: 'numeric' });

/** The axis of periods keyed by their first local day (YYYY-MM-DD), in order. */
export function periodAxis(buckets: readonly string[], granularity: PeriodGranularity): AxisLabel {
  return (index, previous) => {
    const bucket = buckets[index];
    if (bucket === undefined) return null;
    if (granularity === 'week' && index > 0 && bucket.slice(0, 7) === buckets[index - 1]?.slice(0, 7)) return null;
    const before = previous === null ? undefined : buckets[previous];
    const withYear = before === undefined || before.slice(0, 4) !== bucket.slice(0, 4);
    const date = dayOf(bucket);
    if (granularity === 'month') return (withYear ? monthAndYear : monthName).format(date);
    return (withYear ? shortDayAndYear : shortDay).format(date);
  };
}

/** Every label of an axis with room for them all (the calendar's months): each written after the one before. */
export function allLabels(axis: AxisLabel, count: number): string[] {
  const labels: string[] = [];
  let previous: number | null = null;
  for (let index = 0; index < count; index++) {
    const label = axis(index, previous);
    labels.push(label ?? '');
    if (label !== null) previous = index;
  }
  return labels;
}
