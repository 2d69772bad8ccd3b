import { describe, expect, it } from 'vitest';
import { IDLE_AFTER_MS, type MeasuredSession, ReadingClock } from './reading-clock';

function clock() {
  let now = Date.parse('2026-03-01T10:00:00Z');
  const sent: MeasuredSession[] = [];
  let n = 0;
  const c = new ReadingClock(
    'dev-1',
    (s) => sent.push(s),
    () => now,
    () => `s${++n}`,
  );
  return { c, sent, advance: (ms: number) => (now += ms) };
}

describe('the web readers’ reading clock (DECISIONS.md §Reading statistics)', () => {
  it('counts the time between page turns, and sends it when the reading stops', () => {
    const { c, sent, advance } = clock();
    c.moved('b1', 1, false);
    advance(30_000);
    c.moved('b1', 2, false);
    advance(45_000);
    c.moved('b1', 3, false);
    expect(sent).toEqual([]);
    c.end();
    expect(sent).toEqual([
      {
        id: 's1',
        bookId: 'b1',
        deviceId: 'dev-1',
        kind: 'progress',
        activeDurationMs: 75_000,
        pagesRead: 2,
        clientStartedAt: '2026-03-01T10:00:00.000Z',
        clientEndedAt: '2026-03-01T10:01:15.000Z',
      },
    ]);
    c.end();
    expect(sent).toHaveLength(1);
  });

  it('an idle reader adds nothing: a gap over the timeout ends the stretch and starts another', () => {
    const { c, sent, advance } = clock();
    c.moved('b1', 1, false);
    advance(60_000);
    c.moved('b1', 2, false);
    advance(IDLE_AFTER_MS + 1);
    c.moved('b1', 3, false);
    advance(20_000);
    c.moved('b1', 4, true);
    c.end();
    expect(sent.map((s) => [s.activeDurationMs, s.pagesRead, s.kind])).toEqual([
      [60_000, 1, 'progress'],
      [20_000, 1, 'completed'],
    ]);
  });

  it('moving to another book ends the first book’s stretch; a stretch without time sends nothing', () => {
    const { c, sent, advance } = clock();
    c.moved('b1', 1, false);
    advance(10_000);
    c.moved('b1', 2, false);
    advance(5_000);
    c.moved('b2', 1, false);
    expect(sent.map((s) => [s.bookId, s.activeDurationMs])).toEqual([['b1', 10_000]]);
    c.end();
    expect(sent).toHaveLength(1);
  });
});
