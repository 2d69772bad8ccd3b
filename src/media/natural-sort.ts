/**
 * Natural order for page and book file names (DECISIONS.md §Books): digit runs compare by value
 * (`2.jpg` before `10.jpg`), letters case-insensitively; ties fall back to the plain name so the
 * order is total and stable. `naturalSortKey` gives a string whose plain (binary) order is the same
 * order, for a DB column (books.sort_key); naturalCompare is defined through it so the two never disagree.
 */
const SEGMENT = /(\d+)|(\D+)/g;

/**
 * Each digit run becomes `0` + its digit count (2 base-36 chars) + the digits without leading zeros,
 * so `2` < `10` holds as text; a text run becomes `1` + the lower-cased text, so at the same position
 * a number sorts before text (`1.jpg` before `a.jpg`).
 */
export function naturalSortKey(name: string): string {
  let key = '';
  for (const match of name.normalize('NFC').toLowerCase().matchAll(SEGMENT)) {
    if (match[1] !== undefined) {
      const digits = match[1].replace(/^0+(?=\d)/, '');
      key += '0' + Math.min(digits.length, 1295).toString(36).padStart(2, '0') + digits;
    } else {
      key += '1' + match[2];
    }
  }
  return key;
}

export function naturalCompare(a: string, b: string): number {
  const left = naturalSortKey(a);
  const right = naturalSortKey(b);
  if (left !== right) return left < right ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Sorted copy; Array.prototype.sort is stable, so identical names keep their input order. */
export function naturalSort<T>(items: readonly T[], nameOf: (item: T) => string): T[] {
  const keyed = items.map((item) => ({ item, name: nameOf(item), key: naturalSortKey(nameOf(item)) }));
  keyed.sort((x, y) => (x.key !== y.key ? (x.key < y.key ? -1 : 1) : x.name < y.name ? -1 : x.name > y.name ? 1 : 0));
  return keyed.map((entry) => entry.item);
}
