/**
 * ISBNs as books carry them (ComicInfo GTIN, EPUB dc:identifier, an edit): hyphens and spaces dropped,
 * kept only when the check digit is right, so a barcode that is not a book number or a typo is not shown
 * as an ISBN. ISBN-10 and ISBN-13 are both kept as written (no conversion).
 */

function isbn13CheckOk(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < 13; i++) sum += Number(digits[i]) * (i % 2 === 0 ? 1 : 3);
  return sum % 10 === 0;
}

function isbn10CheckOk(text: string): boolean {
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const c = text[i] as string;
    const value = c === 'X' ? 10 : Number(c);
    if (c === 'X' && i !== 9) return false;
    sum += value * (10 - i);
  }
  return sum % 11 === 0;
}

/** The ISBN in `value` (digits, X last for ISBN-10), or null when it is not a valid ISBN-10/13. */
export function normalizeIsbn(value: string | null | undefined): string | null {
  if (!value) return null;
  const text = value
    .trim()
    .replace(/^(urn:)?isbn:?\s*/i, '')
    .replace(/[\s-]/g, '')
    .toUpperCase();
  if (/^\d{13}$/.test(text)) return isbn13CheckOk(text) ? text : null;
  if (/^\d{9}[\dX]$/.test(text)) return isbn10CheckOk(text) ? text : null;
  return null;
}
