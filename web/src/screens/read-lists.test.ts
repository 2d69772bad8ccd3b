import { describe, expect, it } from 'vitest';
import { moved } from './read-lists';

describe('moved (read-list reordering)', () => {
  it('moves an item up, down, to either end, and clamps past the ends', () => {
    expect(moved(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moved(['a', 'b', 'c'], 0, 1)).toEqual(['b', 'a', 'c']);
    expect(moved(['a', 'b', 'c'], 1, 2)).toEqual(['a', 'c', 'b']);
    expect(moved(['a', 'b', 'c'], 0, 9)).toEqual(['b', 'c', 'a']);
    expect(moved(['a', 'b', 'c'], 2, -1)).toEqual(['c', 'a', 'b']);
  });
});
