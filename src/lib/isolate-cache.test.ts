import { describe, expect, it } from 'vitest';
import { IsolateCache } from './isolate-cache';

describe('the bounded per-isolate cache (credential checks remembered between requests)', () => {
  it('keeps at most maxEntries: the least recently set entry makes room', () => {
    const cache = new IsolateCache<number>({ ttlMs: 60_000, maxEntries: 2 });
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('a', 3); // set again: now the most recent
    cache.set('c', 4);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(3);
    expect(cache.get('c')).toBe(4);
  });

  it('forgets an entry once its time is up, and on delete', () => {
    const expired = new IsolateCache<string>({ ttlMs: 0, maxEntries: 10 });
    expired.set('key', 'value');
    expect(expired.get('key')).toBeUndefined();

    const cache = new IsolateCache<string>({ ttlMs: 60_000, maxEntries: 10 });
    cache.set('key', 'value');
    expect(cache.get('key')).toBe('value');
    cache.delete('key');
    expect(cache.get('key')).toBeUndefined();
  });
});
