/**
 * The offsets a statistics window is cut by (time-zone.ts; docs/DECISIONS.md §Reading statistics, "Time zones"):
 * daylight-saving changes found to the minute from workerd's own time zone data, whether a window starts, ends or
 * crosses a month on a change, and the same answer when the zone's months were already found by an earlier window.
 */
import { describe, expect, it } from 'vitest';
import { isTimeZone, offsetMinutesAt, offsetSpans } from './time-zone';

const at = (iso: string) => Date.parse(iso);

describe('offsetSpans', () => {
  it('cuts a year of Paris at its two changes, to the minute', () => {
    expect(offsetSpans('Europe/Paris', at('2026-01-01T00:00:00Z'), at('2027-01-01T00:00:00Z'))).toEqual([
      { until: '2026-03-29T01:00:00.000Z', offsetMinutes: 60 },
      { until: '2026-10-25T01:00:00.000Z', offsetMinutes: 120 },
      { until: null, offsetMinutes: 60 },
    ]);
  });

  it('knows half-hour changes and southern summers (Lord Howe: +11 to +10:30 on 5 April 2026, local 02:00)', () => {
    expect(offsetSpans('Australia/Lord_Howe', at('2026-03-15T07:13:00Z'), at('2026-05-02T00:00:00Z'))).toEqual([
      { until: '2026-04-04T15:00:00.000Z', offsetMinutes: 660 },
      { until: null, offsetMinutes: 630 },
    ]);
  });

  it('a zone without changes, and UTC, are one span', () => {
    expect(offsetSpans('Asia/Tokyo', at('2025-02-11T10:00:00Z'), at('2028-01-01T00:00:00Z'))).toEqual([
      { until: null, offsetMinutes: 540 },
    ]);
    expect(offsetSpans('UTC', at('2025-02-11T10:00:00Z'), at('2026-02-11T10:00:00Z'))).toEqual([
      { until: null, offsetMinutes: 0 },
    ]);
  });

  it('a window starting on a change starts in the new offset; one ending on it ends the old one there', () => {
    const change = '2026-03-08T07:00:00.000Z'; // New York: EST to EDT
    expect(offsetSpans('America/New_York', at(change), at('2026-03-20T00:00:00Z'))).toEqual([
      { until: null, offsetMinutes: -240 },
    ]);
    expect(offsetSpans('America/New_York', at('2026-03-01T00:00:00Z'), at(change))).toEqual([
      { until: change, offsetMinutes: -300 },
      { until: null, offsetMinutes: -240 },
    ]);
    expect(offsetSpans('America/New_York', at('2026-03-01T00:00:00Z'), at(change) - 60_000)).toEqual([
      { until: null, offsetMinutes: -300 },
    ]);
  });

  it('a window over months found before, in part or whole, gets the same spans as when found afresh', () => {
    // Three years of Santiago (southern DST, changes in April and September), asked in pieces and then whole.
    const zone = 'America/Santiago';
    const from = at('2024-02-17T13:45:00Z');
    const to = at('2027-02-10T00:00:00Z');
    const pieces = [
      offsetSpans(zone, at('2025-03-03T00:00:00Z'), at('2025-05-01T00:00:00Z')),
      offsetSpans(zone, at('2026-08-15T00:00:00Z'), at('2026-10-01T00:00:00Z')),
    ];
    expect(pieces.map((spans) => spans.length)).toEqual([2, 2]);
    const whole = offsetSpans(zone, from, to);
    // Every span's offset is the zone's own just before its end, and the next one's from it.
    expect(whole.length).toBeGreaterThanOrEqual(6);
    let start = from;
    for (const span of whole) {
      const end = span.until === null ? to : Date.parse(span.until);
      expect(offsetMinutesAt(zone, start)).toBe(span.offsetMinutes);
      expect(offsetMinutesAt(zone, end - 60_000)).toBe(span.offsetMinutes);
      if (span.until !== null) expect(offsetMinutesAt(zone, end)).not.toBe(span.offsetMinutes);
      start = end;
    }
    expect(offsetSpans(zone, from, to)).toEqual(whole);
  });
});

describe('isTimeZone', () => {
  it('names the zones the runtime knows', () => {
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});
