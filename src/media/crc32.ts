/**
 * CRC-32 (IEEE 802.3, as ZIP and RAR use it for entry data and headers), slicing-by-8 so verifying a served page
 * stays a few milliseconds per megabyte, plus a pass-through stream that verifies as it serves.
 */
import { BookAnalysisError } from './errors';

const TABLES = (() => {
  const tables = new Uint32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    tables[n] = c >>> 0;
  }
  for (let n = 0; n < 256; n++) {
    for (let t = 1; t < 8; t++) {
      const previous = tables[(t - 1) * 256 + n]!;
      tables[t * 256 + n] = (tables[previous & 0xff]! ^ (previous >>> 8)) >>> 0;
    }
  }
  return tables;
})();

/** Continues a running CRC (`crc` is the finished value of the bytes before, 0 to start). */
export function crc32Update(crc: number, bytes: Uint8Array): number {
  const t = TABLES;
  let c = ~crc >>> 0;
  let i = 0;
  const fast = bytes.length - (bytes.length % 8);
  while (i < fast) {
    const lo = (c ^ (bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24))) >>> 0;
    c =
      t[1792 + (lo & 0xff)]! ^
      t[1536 + ((lo >>> 8) & 0xff)]! ^
      t[1280 + ((lo >>> 16) & 0xff)]! ^
      t[1024 + (lo >>> 24)]! ^
      t[768 + bytes[i + 4]!]! ^
      t[512 + bytes[i + 5]!]! ^
      t[256 + bytes[i + 6]!]! ^
      t[bytes[i + 7]!]!;
    i += 8;
  }
  while (i < bytes.length) c = t[(c ^ bytes[i++]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

export const crc32 = (bytes: Uint8Array): number => crc32Update(0, bytes);

export function checksumError(entryName: string): BookAnalysisError {
  return new BookAnalysisError('crc_mismatch', `The entry ${entryName} is damaged (checksum mismatch)`);
}

/**
 * Passes `expectedSize` bytes through unchanged and errors the stream at the end when their CRC-32 or
 * length differs from the archive's record, so a damaged page never ends as a clean response.
 */
export function crc32VerifyingStream(
  expectedCrc: number,
  expectedSize: number,
  entryName: string,
): TransformStream<Uint8Array, Uint8Array> {
  let crc = 0;
  let length = 0;
  return new TransformStream({
    transform(chunk, controller) {
      crc = crc32Update(crc, chunk);
      length += chunk.length;
      controller.enqueue(chunk);
    },
    flush() {
      if (crc !== expectedCrc || length !== expectedSize) throw checksumError(entryName);
    },
  });
}
