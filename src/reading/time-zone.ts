/**
 * A time zone's UTC offsets over a window, for counting local days in SQL (reading-stats.repository.ts
 * `localDay`): SQLite knows no time zones, so the window is cut where the offset changes (daylight saving) and
 * each stretch carries its offset. The runtime's Intl data names the offsets.
 */
import type { OffsetSpan } from '../repositories/reading-stats.repository';

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

/** A time zone the runtime knows (Intl names it): `Europe/Paris`, `UTC`. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const formatters = new Map<string, Intl.DateTimeFormat>();

const formatterOf = (zone: string) => {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
};

/** The zone's offset from UTC at `instant`, in minutes (local = UTC + offset). */
export function offsetMinutesAt(zone: string, instant: number): number {
  const parts = formatterOf(zone).formatToParts(new Date(instant));
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const local = Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second'));
  return Math.round((local - Math.floor(instant / 1000) * 1000) / MINUTE_MS);
}

/**
 * The offsets of `zone` over [from, to): sampled every 6 hours (no zone changes its offset twice within that),
 * each change found to the minute by bisection.
 */
export function offsetSpans(zone: string, from: number, to: number): OffsetSpan[] {
  const spans: OffsetSpan[] = [];
  let current = offsetMinutesAt(zone, from);
  let previousSample = from;
  for (let sample = from + 6 * HOUR_MS; ; sample += 6 * HOUR_MS) {
    const at = Math.min(sample, to);
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
      spans.push({ until: new Date(Math.floor(high / MINUTE_MS) * MINUTE_MS).toISOString(), offsetMinutes: current });
      current = offset;
    }
    previousSample = at;
    if (at >= to) break;
  }
  spans.push({ until: null, offsetMinutes: current });
  return spans;
}
