import { describe, expect, it } from 'vitest';
import { safeNext } from './navigation';

describe('returning after login', () => {
  it('accepts only same-origin paths', () => {
    expect(safeNext('/series/42?page=2')).toBe('/series/42?page=2');
    expect(safeNext('//evil.example/x')).toBe('/');
    expect(safeNext('https://evil.example')).toBe('/');
    expect(safeNext(undefined)).toBe('/');
  });
});
