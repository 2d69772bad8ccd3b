/**
 * `Range: bytes=…` for file downloads (RFC 9110 §14). One range is served as a 206; a header that is
 * not a single well-formed byte range is ignored (the whole file is sent, as the RFC allows), and a
 * range that starts beyond the end is unsatisfiable (416).
 */
export type ByteRange =
  | { kind: 'whole' }
  | { kind: 'partial'; offset: number; length: number }
  | { kind: 'unsatisfiable' };

const SINGLE_RANGE = /^bytes=(\d*)-(\d*)$/;

export function parseByteRange(header: string | undefined, size: number): ByteRange {
  const match = header ? SINGLE_RANGE.exec(header.trim()) : null;
  if (!match) return { kind: 'whole' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    // Suffix range: the last n bytes (all of them when n exceeds the size).
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    const length = Math.min(suffix, size);
    return { kind: 'partial', offset: size - length, length };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Number(last);
  if (last !== '' && end < start) return { kind: 'whole' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', offset: start, length: Math.min(end, size - 1) - start + 1 };
}

/**
 * `If-Range`: the range applies only while the client's copy is current, named by a strong ETag or by
 * the exact Last-Modified date; otherwise the whole (changed) file is sent.
 */
export function ifRangeAllows(header: string | undefined, etag: string, lastModified: Date): boolean {
  if (!header) return true;
  const value = header.trim();
  if (value.startsWith('"')) return value === etag;
  if (value.startsWith('W/')) return false;
  const date = Date.parse(value);
  return !Number.isNaN(date) && Math.floor(date / 1000) === Math.floor(lastModified.getTime() / 1000);
}

export function contentRange(offset: number, length: number, size: number): string {
  return `bytes ${offset}-${offset + length - 1}/${size}`;
}
