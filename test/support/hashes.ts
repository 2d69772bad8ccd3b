/**
 * The book hashes (DECISIONS.md §Books: fileHash, readerHash) computed here from a file's whole bytes,
 * written from their descriptions rather than from the server's code, so tests compare two methods.
 */
import { md5 } from '@noble/hashes/legacy.js';

export const hex = (bytes: ArrayBuffer | Uint8Array) =>
  [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');

/** KOReader's partial MD5: 1 KiB at 0 and at 1024·4^i (i = 0..10) until EOF. */
export function koreaderHash(bytes: Uint8Array): string {
  const hash = md5.create();
  for (const offset of [0, ...Array.from({ length: 11 }, (_, i) => 1024 * 4 ** i)]) {
    if (offset >= bytes.length) break;
    hash.update(bytes.subarray(offset, offset + 1024));
  }
  return hex(hash.digest());
}
