/**
 * Reading one ZIP entry over range reads. Serving a page is one ranged read from the local header
 * through the end of the compressed data (the header length is guessed from the central directory
 * and a second read only happens when a local extra field is longer than that guess); deflate is
 * inflated on the fly by the runtime's DecompressionStream, so an entry is never buffered whole.
 */
import { BookAnalysisError, truncatedError } from '../errors';
import type { RangeReader } from '../range-reader';
import { checkedStream } from '../checked-stream';
import { crc32 } from '../crc32';

/** What is needed to read an entry without the central directory (stored in page locators). */
export interface ZipEntryRef {
  name: string;
  offset: number;
  method: number;
  compressedSize: number;
  size: number;
  crc32: number;
  headerHint: number;
  encrypted?: boolean;
}

const LOCAL_SIG = 0x04034b50;
const STORED = 0;
const DEFLATE = 8;
/** Room for local extra fields the central directory does not repeat (timestamps, alignment padding). */
const HEADER_SLACK = 256;

const METHOD_NAMES: Record<number, string> = {
  1: 'Shrink',
  6: 'Implode',
  9: 'Deflate64',
  12: 'bzip2',
  14: 'LZMA',
  93: 'Zstandard',
  95: 'XZ',
  96: 'WinZip JPEG',
  97: 'WavPack',
  98: 'PPMd',
};

/** Throws the plain-words error for entries Longbox cannot decode. */
export function assertReadableEntry(entry: ZipEntryRef): void {
  if (entry.encrypted || entry.method === 99) {
    throw new BookAnalysisError('encrypted', 'The archive is encrypted; Longbox cannot read password-protected files');
  }
  if (entry.method !== STORED && entry.method !== DEFLATE) {
    const name = METHOD_NAMES[entry.method] ?? `number ${entry.method}`;
    throw new BookAnalysisError(
      'unsupported_compression',
      `Compression method ${name} is not supported; repack the book as a standard CBZ (deflate)`,
    );
  }
}

const pageMoved = () =>
  new BookAnalysisError(
    'page_not_found',
    'The page is not where the book index says; the book needs to be analysed again',
  );

/**
 * The entry's compressed bytes, exactly `compressedSize` of them, as the archive stores them (a comic turned
 * into an EPUB copies them into its own ZIP unchanged: src/media/comic-epub/).
 */
export async function rawEntryStream(reader: RangeReader, entry: ZipEntryRef): Promise<ReadableStream<Uint8Array>> {
  if (entry.offset + 30 > reader.size) throw pageMoved();
  const firstLength = Math.min(reader.size - entry.offset, entry.headerHint + HEADER_SLACK + entry.compressedSize);
  let source = (await reader.stream(entry.offset, firstLength)).getReader();
  let position = entry.offset;
  let header: Uint8Array = new Uint8Array(0);
  let dataStart = -1;
  let remaining = entry.compressedSize;

  function parseHeader(): void {
    const v = new DataView(header.buffer, header.byteOffset, header.byteLength);
    if (v.getUint32(0, true) !== LOCAL_SIG) throw pageMoved();
    dataStart = entry.offset + 30 + v.getUint16(26, true) + v.getUint16(28, true);
  }

  let continuedAt = -1;
  async function continueFrom(): Promise<void> {
    const end = dataStart < 0 ? reader.size : dataStart + entry.compressedSize;
    // A continuation that delivered nothing would loop forever: the data is simply not there.
    if (end > reader.size || position >= end || continuedAt === position) throw truncatedError();
    continuedAt = position;
    source = (await reader.stream(position, Math.min(end, reader.size) - position)).getReader();
  }

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      while (true) {
        if (dataStart >= 0 && remaining === 0) {
          await source.cancel();
          controller.close();
          return;
        }
        const { done, value } = await source.read();
        if (done) {
          await continueFrom();
          continue;
        }
        const chunkStart = position;
        position += value.length;
        if (dataStart < 0) {
          const joined = new Uint8Array(header.length + value.length);
          joined.set(header);
          joined.set(value, header.length);
          header = joined;
          if (header.length < 30) continue;
          parseHeader();
        }
        const from = Math.max(0, dataStart - chunkStart);
        const to = Math.min(value.length, dataStart + entry.compressedSize - chunkStart);
        if (to > from) {
          controller.enqueue(value.subarray(from, to));
          remaining -= to - from;
          return;
        }
      }
    },
    cancel(reason) {
      return source.cancel(reason);
    },
  });
}

/**
 * The first `length` bytes of a stored (uncompressed) entry as one array, with at most two reads (the
 * second only when the local extra field is longer than the hint). Page headers read this way skip the
 * two streams per page of openEntryStream: the deferred details pass reads ~50 headers per book. Errors
 * are those of a page stream read for its header: the first read's propagate, a missing local header or
 * a failed second read give no bytes.
 */
export async function readStoredEntryPrefix(
  reader: RangeReader,
  entry: ZipEntryRef,
  length: number,
): Promise<Uint8Array> {
  assertReadableEntry(entry);
  if (entry.method !== STORED) throw new Error('readStoredEntryPrefix reads stored entries only');
  if (entry.offset + 30 > reader.size) throw pageMoved();
  const guess = Math.min(
    reader.size - entry.offset,
    entry.headerHint + HEADER_SLACK + Math.min(length, entry.compressedSize),
  );
  const first = await reader.read(entry.offset, guess);
  const v = new DataView(first.buffer, first.byteOffset, first.byteLength);
  // As a page stream that fails after its first read: nothing of the entry could be read (no header).
  if (first.length < 30 || v.getUint32(0, true) !== LOCAL_SIG) return new Uint8Array(0);
  const dataStart = entry.offset + 30 + v.getUint16(26, true) + v.getUint16(28, true);
  // A file cut short gives what it has, as the stream does until it runs dry.
  const wanted = Math.max(0, Math.min(length, entry.compressedSize, reader.size - dataStart));
  const inFirst = dataStart - entry.offset;
  if (inFirst + wanted <= first.length) return first.subarray(inFirst, inFirst + wanted);
  // Nothing left to read (the data would start past the end): no bytes, as the stream gives. A reader
  // may refuse a bad range by throwing at once rather than rejecting, so both end here.
  if (wanted === 0) return new Uint8Array(0);
  try {
    return await reader.read(dataStart, wanted);
  } catch {
    return new Uint8Array(0);
  }
}

/** The entry's uncompressed bytes as a stream (stored: as is; deflate: inflated while streaming). */
export async function openEntryStream(reader: RangeReader, entry: ZipEntryRef): Promise<ReadableStream<Uint8Array>> {
  assertReadableEntry(entry);
  const raw = await rawEntryStream(reader, entry);
  if (entry.method === STORED) return raw;
  const inflated = raw.pipeThrough(
    new DecompressionStream('deflate-raw') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>,
  );
  return checkedStream(inflated, { name: entry.name, maxBytes: entry.size });
}

/**
 * A whole small entry (ComicInfo.xml, OPF) with its CRC-32 checked. `maxSize` guards against
 * directory sizes that lie (zip bombs): reading stops as soon as the output exceeds it.
 */
export async function readEntryBytes(reader: RangeReader, entry: ZipEntryRef, maxSize: number): Promise<Uint8Array> {
  if (entry.size > maxSize) {
    throw new BookAnalysisError(
      'too_large',
      `${entry.name} is larger than ${Math.round(maxSize / 1024)} KiB; it was not read`,
    );
  }
  const stream = await openEntryStream(reader, entry);
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
      total += chunk.length;
      if (total > maxSize) throw new BookAnalysisError('corrupt', `${entry.name} is larger than the archive says`);
      chunks.push(chunk);
    }
  } catch (error) {
    if (error instanceof BookAnalysisError) throw error;
    throw new BookAnalysisError('corrupt', `${entry.name} cannot be decompressed; the archive is damaged`);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  if (total !== entry.size || crc32(bytes) !== entry.crc32) {
    throw new BookAnalysisError('crc_mismatch', `${entry.name} is damaged (checksum mismatch)`);
  }
  return bytes;
}
