/**
 * Content hashes of a book file (DECISIONS.md §Books), both computed from R2 without holding the file:
 * - fileHash: SHA-256 of the whole file, streamed through the runtime's native DigestStream;
 * - readerHash: KOReader's partial MD5 — 1 KiB samples at offset 0 and 1024·4^i for i = 0..10,
 *   stopping at end of file — so KOReader's progress sync can find the book.
 */
import { md5 } from '@noble/hashes/legacy.js';
import { toHex } from '../lib/encoding';
import type { RangeReader } from '../media/range-reader';

export async function sha256OfObject(bucket: R2Bucket, key: string): Promise<string | null> {
  const object = await bucket.get(key);
  if (!object) return null;
  const digest = new crypto.DigestStream('SHA-256');
  await object.body.pipeTo(digest);
  return toHex(new Uint8Array(await digest.digest));
}

const SAMPLE = 1024;

export async function koreaderPartialMd5(reader: RangeReader): Promise<string> {
  const hash = md5.create();
  const offsets = [0, ...Array.from({ length: 11 }, (_, i) => SAMPLE * 4 ** i)];
  for (const offset of offsets) {
    if (offset >= reader.size) break;
    hash.update(await reader.read(offset, Math.min(SAMPLE, reader.size - offset)));
  }
  return toHex(hash.digest());
}
