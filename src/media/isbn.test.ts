import { describe, expect, it } from 'vitest';
import { normalizeIsbn } from './isbn';

describe('normalizeIsbn: an ISBN only when its check digit is right', () => {
  it('keeps ISBN-13 and ISBN-10 as digits, however they were written', () => {
    expect(normalizeIsbn('978-0-306-40615-7')).toBe('9780306406157');
    expect(normalizeIsbn(' urn:isbn:978 0 306 40615 7 ')).toBe('9780306406157');
    expect(normalizeIsbn('ISBN 0-306-40615-2')).toBe('0306406152');
    expect(normalizeIsbn('0-8044-2957-x')).toBe('080442957X');
  });

  it('refuses wrong check digits, UPCs, an X anywhere but last, and text', () => {
    for (const value of ['9780306406158', '075960614847', '03064X6152', 'not an isbn', '', null]) {
      expect(normalizeIsbn(value)).toBeNull();
    }
  });
});
