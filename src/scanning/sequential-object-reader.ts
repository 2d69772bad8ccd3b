/**
 * One sequential GET of a book file, served as a RangeReader (issue 11 point 2). The deferred details
 * of a book — every page's dimensions, the SHA-256 and KOReader's samples — used to cost one ranged
 * R2 GET per page plus a whole-file GET plus a dozen sample GETs, all in sequence. Here the object is
 * streamed once: every byte that passes goes into the SHA-256 digest, the KOReader sample ranges are
 * copied as they pass, and reads at increasing offsets (page headers, asked in file order) are cut
 * from the stream. A short window of recent bytes answers small steps back (a page header window
 * that overlaps the next entry); anything further back, or a read too large to hold, goes to the
 * fallback reader as a ranged GET, so every format stays correct and only the R2 request count moves.
 */
import { md5 } from '@noble/hashes/legacy.js';
import { toHex } from '../lib/encoding';
import { BookAnalysisError, truncatedError } from '../media/errors';
import type { RangeReader } from '../media/range-reader';
import { KOREADER_SAMPLE_SIZE, koreaderSampleOffsets } from './file-hashes';

/** Recent bytes kept for steps back: two page-header windows (512 KiB each) and then some. */
const WINDOW_BYTES = 2 * 1024 * 1024;
/** Reads longer than this are not cut from the stream (they would have to be held): fallback GET. */
const MAX_SEQUENTIAL_READ = 1024 * 1024;
/**
 * Bytes taken from the body per read (the last may be shorter). R2 bodies arrive in small pieces (4 KiB
 * locally): every piece handed to JS costs a turn and the work per chunk below, so reads ask for 64 KiB
 * at once (measured locally: one 319 KiB book read 1.1–1.8 ms instead of 2.1–2.7 ms, 6 chunks instead of 80).
 */
const CHUNK_BYTES = 64 * 1024;
/** What one pull of a stream cut from the pass takes (well under MAX_SEQUENTIAL_READ). */
const STREAM_PIECE_BYTES = 256 * 1024;
/**
 * A read that brings no bytes for this long is a stalled R2 stream (issue 21): the pass fails with a
 * storage error, so the consumer retries that one book instead of holding its whole batch until the
 * platform's wall-time limit ends it and every book of the batch is retried.
 */
export const DEFAULT_READ_STALL_MS = 30_000;

/** R2 stopped sending the object part-way: an error that may pass (the message is retried). */
export class StorageReadStalled extends Error {
  override readonly name = 'StorageReadStalled';
}

export interface OnePassStats {
  /** R2 GETs made: the one streaming GET plus fallback ranged GETs. */
  requests: number;
  /** Reads the stream could not serve (behind the window or too large). */
  fallbackReads: number;
}

export interface OnePassReader {
  reader: RangeReader;
  stats: OnePassStats;
  /** Streams the rest of the file and returns its hashes (DECISIONS.md §Books: fileHash, readerHash). */
  finish(): Promise<{ fileHash: string; readerHash: string }>;
  /** Stops the GET when the pass ends early (an unreadable page): nothing keeps the stream open. */
  abort(): void;
}

interface Chunk {
  start: number;
  bytes: Uint8Array;
}

/**
 * Opens the object once. `etag` pins the version the book index was built from; `fallback` opens a
 * ranged reader on the same version, lazily (most books never need it).
 */
export async function openOnePassReader(
  bucket: R2Bucket,
  key: string,
  etag: string,
  fallback: () => Promise<RangeReader>,
  { stallMs = DEFAULT_READ_STALL_MS }: { stallMs?: number } = {},
): Promise<OnePassReader> {
  const object = await bucket.get(key, { onlyIf: { etagMatches: etag } });
  if (!object) throw new BookAnalysisError('file_missing', 'The file no longer exists in storage');
  if (!('body' in object)) throw new BookAnalysisError('file_missing', 'The file changed since it was scanned');
  const size = object.size;
  const stats: OnePassStats = { requests: 1, fallbackReads: 0 };
  const source = (object.body as ReadableStream<Uint8Array>).getReader({ mode: 'byob' });
  const digest = new crypto.DigestStream('SHA-256');
  const digestWriter = digest.getWriter();
  const samples = koreaderSampleOffsets(size).map((offset) => ({
    offset,
    bytes: new Uint8Array(Math.min(KOREADER_SAMPLE_SIZE, size - offset)),
  }));
  const window: Chunk[] = [];
  let windowBytes = 0;
  /** Bytes taken from the stream so far. */
  let position = 0;
  let ended = false;
  let fallbackReader: Promise<RangeReader> | null = null;

  const copySamples = (chunk: Uint8Array, start: number) => {
    const end = start + chunk.length;
    for (const sample of samples) {
      const from = Math.max(sample.offset, start);
      const to = Math.min(sample.offset + sample.bytes.length, end);
      if (from < to) sample.bytes.set(chunk.subarray(from - start, to - start), from - sample.offset);
    }
  };

  /**
   * Takes one more chunk from R2 into the digest, the samples and the window; false at the end. Callers
   * that overlap share one read: a BYOB reader allows one pending read, and a stream cut from this pass
   * (a kept cover) can still be pulling when the pass moves on after cancelling it.
   */
  let advancing: Promise<boolean> | null = null;
  const advance = (): Promise<boolean> => {
    advancing ??= takeNextChunk().finally(() => {
      advancing = null;
    });
    return advancing;
  };

  /** The read, or a StorageReadStalled (and the stream cancelled) when no bytes came for `stallMs`. */
  const untilStalled = <T>(read: Promise<T>): Promise<T> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stalled = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new StorageReadStalled(`R2 sent no bytes of ${key} for ${stallMs / 1000} s`);
        source.cancel(error).catch(() => {});
        reject(error);
      }, stallMs);
    });
    return Promise.race([read, stalled]).finally(() => clearTimeout(timer));
  };

  const takeNextChunk = async (): Promise<boolean> => {
    if (!ended) {
      const { done, value } = await untilStalled(source.readAtLeast(CHUNK_BYTES, new Uint8Array(CHUNK_BYTES)));
      ended = done || !value || value.length === 0;
      if (value && value.length > 0) {
        take(value);
        await digestWriter.write(value);
        return true;
      }
    }
    if (position !== size) throw truncatedError();
    return false;
  };

  /** Into the samples and the window. */
  const take = (value: Uint8Array) => {
    // The window keeps its own copy: the digest stream may take ownership of the chunk it is given.
    const bytes = value.slice();
    copySamples(bytes, position);
    window.push({ start: position, bytes });
    windowBytes += bytes.length;
    position += bytes.length;
    while (window.length > 1 && windowBytes - (window[0] as Chunk).bytes.length >= WINDOW_BYTES) {
      windowBytes -= (window.shift() as Chunk).bytes.length;
    }
  };

  const windowStart = () => window[0]?.start ?? position;

  const readFallback = async (offset: number, length: number): Promise<Uint8Array> => {
    stats.fallbackReads += 1;
    stats.requests += 1;
    fallbackReader ??= fallback();
    return (await fallbackReader).read(offset, length);
  };

  const checkRange = (offset: number, length: number) => {
    if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0) {
      throw new BookAnalysisError('corrupt', `The file points at an impossible position (${offset}+${length})`);
    }
    if (offset + length > size) throw truncatedError();
  };

  const read = async (offset: number, length: number): Promise<Uint8Array> => {
    checkRange(offset, length);
    if (length === 0) return new Uint8Array(0);
    if (offset < windowStart() || length > MAX_SEQUENTIAL_READ) return readFallback(offset, length);
    while (position < offset + length) {
      if (!(await advance())) throw truncatedError();
    }
    // Reads follow the stream: the chunks they need are the newest, so look from the end of the window.
    let first = window.length - 1;
    while (first > 0 && (window[first] as Chunk).start > offset) first -= 1;
    const head = window[first];
    // Dropped meanwhile (finish() empties the window while a cancelled reader of the pass still waits).
    if (!head || head.start > offset) return readFallback(offset, length);
    // Inside one chunk (most page headers): a view, no copy; window chunks are never written to.
    if (offset + length <= head.start + head.bytes.length) {
      return head.bytes.subarray(offset - head.start, offset - head.start + length);
    }
    const out = new Uint8Array(length);
    for (let i = first; i < window.length; i++) {
      const chunk = window[i] as Chunk;
      if (chunk.start >= offset + length) break;
      const from = Math.max(offset, chunk.start);
      const to = Math.min(offset + length, chunk.start + chunk.bytes.length);
      if (from < to) out.set(chunk.bytes.subarray(from - chunk.start, to - chunk.start), from - offset);
    }
    return out;
  };

  const reader: RangeReader = {
    size,
    read,
    async stream(offset, length) {
      checkRange(offset, length); // an impossible range fails here, as a read of it would
      // Cut in pieces as it is pulled, each a sequential read of the stream: a page header window stops
      // early, and a whole page (a thumbnail's cover) streams however large it is.
      let done = 0;
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (done >= length) return controller.close();
          const piece = Math.min(STREAM_PIECE_BYTES, length - done);
          controller.enqueue(await read(offset + done, piece));
          done += piece;
        },
      });
    },
  };

  return {
    reader,
    stats,
    async finish() {
      while (await advance()) {
        // Drop what passes: only the digest and the samples need the rest of the file.
        window.length = 0;
        windowBytes = 0;
      }
      await digestWriter.close();
      const readerHash = md5.create();
      for (const sample of samples) readerHash.update(sample.bytes);
      return { fileHash: toHex(new Uint8Array(await digest.digest)), readerHash: toHex(readerHash.digest()) };
    },
    abort() {
      source.cancel().catch(() => {});
      // Aborting the writer also rejects `digest.digest`, which nobody awaits once the pass ended early:
      // left alone it surfaces as an unhandled rejection (with no reason) in the consumer's isolate.
      digest.digest.catch(() => {});
      digestWriter.abort().catch(() => {});
    },
  };
}
