/**
 * Editing a list a writer sees only part of (docs/DECISIONS.md §Organise and share): what Komelia's reorder
 * PATCH or Codex-rs's PUT does when some members are hidden from the writer. Checked here on the rule itself
 * because hiding members per user is the access work's (issue 17); the API tests cover the visible case.
 */
import { describe, expect, it } from 'vitest';
import { checkMemberIds, replaceVisibleMembers } from './members';
import { placeInArc } from './story-arcs';

describe('replaceVisibleMembers', () => {
  const hidden = new Set(['H1', 'H2']);
  const isHidden = (id: string) => hidden.has(id);

  it('keeps hidden members in their places and fills the visible places with what was sent', () => {
    expect(replaceVisibleMembers(['A', 'H1', 'B', 'H2', 'C'], isHidden, ['C', 'A', 'B'])).toEqual([
      'C',
      'H1',
      'A',
      'H2',
      'B',
    ]);
  });

  it('drops visible members left out, appends new ones, and never drops a hidden one', () => {
    expect(replaceVisibleMembers(['H1', 'A', 'B'], isHidden, ['B'])).toEqual(['H1', 'B']);
    expect(replaceVisibleMembers(['A', 'H2'], isHidden, ['A', 'N1', 'N2'])).toEqual(['A', 'H2', 'N1', 'N2']);
    expect(replaceVisibleMembers(['H1', 'H2'], isHidden, [])).toEqual(['H1', 'H2']);
  });
});

describe('checkMemberIds', () => {
  it('names repeated and unknown ids in a 400', () => {
    expect(() => checkMemberIds(['a', 'b', 'a'], new Set(['a', 'b']), 'bookIds', 'book')).toThrow(/more than once: a/);
    expect(() => checkMemberIds(['a', 'x'], new Set(['a']), 'bookIds', 'book')).toThrow(
      /Unknown book id\(s\) in bookIds: x/,
    );
    expect(() => checkMemberIds(['a'], new Set(['a']), 'bookIds', 'book')).not.toThrow();
  });
});

describe('placeInArc (Komga ReadListLifecycle)', () => {
  /** An arc's books as `[bookId, number]` pairs, and placements as `[bookId, position]` pairs. */
  const arc = (...books: Array<[string, number | null]>) => books.map(([bookId, number]) => ({ bookId, number }));
  const placed = (...books: Array<[string, number]>) => books.map(([bookId, position]) => ({ bookId, position }));

  it('starts a new list at the numbers, and puts clashes and unnumbered books after the last', () => {
    expect(placeInArc(new Map(), arc(['c', null], ['b', 2], ['a', 1], ['d', 2]))).toEqual(
      placed(['a', 1], ['b', 2], ['d', 3], ['c', 4]),
    );
  });

  it('leaves books already in the list where they are', () => {
    expect(placeInArc(new Map([['a', 5]]), arc(['a', 1], ['b', 1], ['c', 5]))).toEqual(placed(['b', 1], ['c', 6]));
  });
});
