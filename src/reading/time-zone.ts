/**
 * A time zone's UTC offsets over a window, for counting local days in SQL (reading-stats.repository.ts
 * `localDay`): SQLite knows no time zones, so the window is cut where the offset changes (daylight saving) and
 * each stretch carries its offset. The runtime's Intl data names the offsets.
 *
 * Finding the changes asks Intl every 6 hours of the window — about 1,500 questions for a year, 10–17 ms of a
 * request's CPU — and the answer is the same for every request of the zone. So a zone's changes are found one
 * UTC calendar month at a time and kept in the isolate: a window is then put together from the months it
 * touches, and only a month no request asked about yet costs Intl's time.
 */
import type { OffsetSpan } from '../repositories/reading-stats.repository';

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;
/** No zone changes its offset twice within this, so sampling this often misses no change. */
const SAMPLE_MS = 6 * HOUR_MS;
/** Months (of any zone) and formatters kept per isolate: a few KB, whatever zones are asked for. */
const MAX_CACHED_MONTHS = 5000;
const MAX_CACHED_FORMATTERS = 500;

/** Sets `key` in `map`, dropping the entry set longest ago when the map is full. */
function remember<V>(map: Map<string, V>, key: string, value: V, limit: number): V {
  if (map.size >= limit) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
  map.set(key, value);
  return value;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's formatter, kept per isolate; throws a RangeError for a zone the runtime does not know. */
const formatterOf = (zone: string) =>
  formatters.get(zone) ??
  remember(
    formatters,
    zone,
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }),
    MAX_CACHED_FORMATTERS,
  );

/** A time zone the runtime knows (Intl names it): `Europe/Paris`, `UTC`. */
export function isTimeZone(zone: string): boolean {
  try {
    formatterOf(zone);
    return true;
  } catch {
    return false;
  }
}

/** The zone's offset from UTC at `instant`, in minutes (local = UTC + offset). */
export function offsetMinutesAt(zone: string, instant: number): number {
  const parts = formatterOf(zone).formatToParts(new Date(instant));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const local = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return Math.round((local - Math.floor(instant / 1000) * 1000) / MINUTE_MS);
}

/** A change of offset: from `at` (a whole minute), local = UTC + `offsetMinutes`. */
interface OffsetChange {
  at: number;
  offsetMinutes: number;
}

/** A UTC calendar month of a zone: its offset when the month starts, and the changes after that (to its end). */
interface MonthOffsets {
  offsetMinutes: number;
  changes: OffsetChange[];
}

const months = new Map<string, MonthOffsets>();

/**
 * The offsets of `zone` over [start, end]: sampled every 6 hours and at `end`, each change found to the minute
 * by bisection. A change exactly at `start` is the offset it starts with; one exactly at `end` is among `changes`.
 */
function offsetsBetween(zone: string, start: number, end: number): MonthOffsets {
  const first = offsetMinutesAt(zone, start);
  const changes: OffsetChange[] = [];
  let current = first;
  let previousSample = start;
  for (let sample = start + SAMPLE_MS; ; sample += SAMPLE_MS) {
    const at = Math.min(sample, end);
    const offset = offsetMinutesAt(zone, at);
    if (offset !== current) {
      let low = previousSample;
      let high = at;
      while (high - low > MINUTE_MS) {
        const middle = low + Math.floor((high - low) / 2);
        if (offsetMinutesAt(zone, middle) === current) low = middle;
        else high = middle;
      }
      // Offsets change on a whole minute, and it lies in (low, high] with high - low ≤ a minute.
      changes.push({ at: Math.floor(high / MINUTE_MS) * MINUTE_MS, offsetMinutes: offset });
      current = offset;
    }
    previousSample = at;
    if (at >= end) break;
  }
  return { offsetMinutes: first, changes };
}

/** The UTC calendar month holding `instant`, of `zone`: found once per isolate. */
function monthOf(zone: string, instant: number): { start: number; end: number; offsets: MonthOffsets } {
  const date = new Date(instant);
  const start = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  const end = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
  const key = `${zone}\n${start}`;
  const offsets = months.get(key) ?? remember(months, key, offsetsBetween(zone, start, end), MAX_CACHED_MONTHS);
  return { start, end, offsets };
}

/**
 * The offsets of `zone` over [from, to): one span per stretch of one offset, each until the change that ends it
 * (exclusive), the last until null. A change in (from, to] ends a span.
 */
export function offsetSpans(zone: string, from: number, to: number): OffsetSpan[] {
  const spans: OffsetSpan[] = [];
  let month = monthOf(zone, from);
  let current = month.offsets.offsetMinutes;
  for (const change of month.offsets.changes) if (change.at <= from) current = change.offsetMinutes;
  for (;;) {
    for (const change of month.offsets.changes) {
      if (change.at <= from || change.at > to) continue;
      spans.push({ until: new Date(change.at).toISOString(), offsetMinutes: current });
      current = change.offsetMinutes;
    }
    if (month.end >= to) break;
    month = monthOf(zone, month.end);
  }
  spans.push({ until: null, offsetMinutes: current });
  return spans;
}
