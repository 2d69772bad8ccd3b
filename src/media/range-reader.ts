/**
 * Random access to a book file without loading it (128 MB isolate): every format reader works through
 * this interface. `r2RangeReader` turns each call into one ranged R2 get; `memoryRangeReader` serves a
 * byte array (tests, Node tools). Both count reads and bytes so benchmarks and tests can show how
 * little of a book each operation touches.
 */
import { BookAnalysisError, truncatedError } from './errors';

export interface RangeReader {
  /** Total size of the file in bytes. */
  readonly size: number;
  /** Exactly `length` bytes from `offset`; throws BookAnalysisError('truncated') past the end. */
  read(offset: number, length: number): Promise<Uint8Array>;
  /** The same range as a stream, for serving without buffering. */
  stream(offset: number, length: number): Promise<ReadableStream<Uint8Array>>;
}

export interface ReadStats {
  reads: number;
  bytes: number;
}

export interface CountingRangeReader extends RangeReader {
  readonly stats: ReadStats;
}

function checkRange(size: number, offset: number, length: number): void {
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
    throw new BookAnalysisError('corrupt', `The file points at an impossible position (${offset}+${length})`);
  }
  if (offset + length > size) throw truncatedError();
}

const emptyStream = () =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.close();
    },
  });

/**
 * A reader over one object in an R2 bucket. Pass `size` when the listing already gave it (saves a
 * head request). The object's etag is pinned at open time, so a file replaced mid-read fails loudly
 * instead of mixing bytes from two versions.
 */
export async function r2RangeReader(bucket: R2Bucket, key: string, size?: number): Promise<CountingRangeReader> {
  let etag: string | undefined;
  if (size === undefined) {
    const head = await bucket.head(key);
    if (!head) throw new BookAnalysisError('file_missing', 'The file no longer exists in storage');
    size = head.size;
    etag = head.etag;
  }
  const total = size;
  const stats: ReadStats = { reads: 0, bytes: 0 };

  async function get(offset: number, length: number): Promise<R2ObjectBody> {
    const options: R2GetOptions = { range: { offset, length } };
    if (etag) options.onlyIf = { etagMatches: etag };
    const object = await bucket.get(key, options);
    if (!object) throw new BookAnalysisError('file_missing', 'The file no longer exists in storage');
    if (!('body' in object)) throw new BookAnalysisError('file_missing', 'The file changed while it was being read');
    etag ??= object.etag;
    stats.reads += 1;
    stats.bytes += length;
    return object;
  }

  return {
    size: total,
    stats,
    async read(offset, length) {
      checkRange(total, offset, length);
      if (length === 0) return new Uint8Array(0);
      const bytes = await (await get(offset, length)).bytes();
      if (bytes.length !== length) throw truncatedError();
      return bytes;
    },
    async stream(offset, length) {
      checkRange(total, offset, length);
      if (length === 0) return emptyStream();
      return (await get(offset, length)).body as ReadableStream<Uint8Array>;
    },
  };
}

/** Chunk size of memory streams, so consumers see multi-chunk streams as they would from R2. */
const MEMORY_CHUNK = 64 * 1024;

export function memoryRangeReader(data: Uint8Array): CountingRangeReader {
  const stats: ReadStats = { reads: 0, bytes: 0 };
  return {
    size: data.length,
    stats,
    async read(offset, length) {
      checkRange(data.length, offset, length);
      stats.reads += 1;
      stats.bytes += length;
      return data.slice(offset, offset + length);
    },
    async stream(offset, length) {
      checkRange(data.length, offset, length);
      stats.reads += 1;
      stats.bytes += length;
      let position = offset;
      const end = offset + length;
      return new ReadableStream<Uint8Array>({
        pull(controller) {
          if (position >= end) {
            controller.close();
            return;
          }
          const next = Math.min(end, position + MEMORY_CHUNK);
          controller.enqueue(data.slice(position, next));
          position = next;
        },
      });
    },
  };
}
