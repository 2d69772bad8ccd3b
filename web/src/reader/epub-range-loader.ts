/**
 * The EPUB reader's file access: foliate-js's `EPUB` takes any loader `{entries, loadText, loadBlob,
 * getSize}`, so instead of downloading the whole book (as epub.js does) the ZIP is read through HTTP Range
 * requests on `GET /books/{id}/file` (DECISIONS.md §Books): the size, the central directory at the end,
 * then only the entries the reader opens. A downloaded (offline) book is read the same way from its Blob.
 * The ZIP parsing is foliate-js's own vendored zip.js; this module only supplies the bytes.
 */
import { BlobWriter, configure, TextWriter, ZipReader } from 'foliate-js/vendor/zip.js';

/** Random access to a file's bytes. */
export interface ByteSource {
  size(): Promise<number>;
  read(offset: number, length: number): Promise<Uint8Array>;
}

export class RangeRequestError extends Error {}

/** Reads smaller than this are widened, so ZIP headers and the data after them come in one request. */
export const MIN_RANGE_BYTES = 64 * 1024;
const CACHED_CHUNKS = 16;

type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * Bytes of a URL by single-range requests. The session cookie authenticates them; `fetchImpl` exists so
 * the loader can be exercised against an in-memory server.
 */
export class HttpRangeSource implements ByteSource {
  private total: number | null = null;
  private readonly chunks: { start: number; bytes: Uint8Array }[] = [];
  /** Requests made and bytes received, for tests and the benchmark. */
  readonly stats = { requests: 0, bytes: 0 };

  constructor(
    private readonly url: string,
    private readonly fetchImpl: FetchLike = (input, init) => fetch(input, init),
  ) {}

  async size(): Promise<number> {
    if (this.total !== null) return this.total;
    const response = await this.request(0, 0);
    const bytes = new Uint8Array(await response.arrayBuffer());
    this.count(bytes);
    if (response.status === 200) {
      // The server ignored the range and sent the whole file: keep it instead of asking again.
      this.total = bytes.length;
      this.remember(0, bytes);
      return this.total;
    }
    const total = Number(/\/(\d+)\s*$/.exec(response.headers.get('Content-Range') ?? '')?.[1]);
    if (!Number.isSafeInteger(total)) throw new RangeRequestError('The server did not report the file size');
    this.total = total;
    return total;
  }

  async read(offset: number, length: number): Promise<Uint8Array> {
    if (length <= 0) return new Uint8Array(0);
    const cached = this.fromCache(offset, length);
    if (cached) return cached;
    const total = await this.size();
    const again = this.fromCache(offset, length);
    if (again) return again;
    const end = Math.min(total, offset + Math.max(length, MIN_RANGE_BYTES)) - 1;
    const response = await this.request(offset, end);
    const bytes = new Uint8Array(await response.arrayBuffer());
    this.count(bytes);
    const start = response.status === 200 ? 0 : offset;
    this.remember(start, bytes);
    const result = this.fromCache(offset, length);
    if (!result) throw new RangeRequestError(`The server sent too few bytes for ${offset}+${length}`);
    return result;
  }

  private async request(start: number, end: number): Promise<Response> {
    const response = await this.fetchImpl(this.url, {
      headers: { Range: `bytes=${start}-${end}` },
      credentials: 'same-origin',
    });
    if (response.status !== 206 && response.status !== 200) {
      throw new RangeRequestError(`Reading the book failed (HTTP ${response.status})`);
    }
    return response;
  }

  private count(bytes: Uint8Array): void {
    this.stats.requests += 1;
    this.stats.bytes += bytes.length;
  }

  private remember(start: number, bytes: Uint8Array): void {
    this.chunks.unshift({ start, bytes });
    this.chunks.length = Math.min(this.chunks.length, CACHED_CHUNKS);
  }

  private fromCache(offset: number, length: number): Uint8Array | null {
    for (const chunk of this.chunks) {
      if (offset >= chunk.start && offset + length <= chunk.start + chunk.bytes.length) {
        // A copy, not a view: zip.js reads results through `new DataView(result.buffer)`.
        return chunk.bytes.slice(offset - chunk.start, offset - chunk.start + length);
      }
    }
    return null;
  }
}

/** Bytes of a Blob: the offline copy of a book. */
export class BlobSource implements ByteSource {
  constructor(private readonly blob: Blob) {}
  async size(): Promise<number> {
    return this.blob.size;
  }
  async read(offset: number, length: number): Promise<Uint8Array> {
    return new Uint8Array(await this.blob.slice(offset, offset + length).arrayBuffer());
  }
}

/** Entry data is streamed to zip.js's inflater in pieces of this size. */
const STREAM_CHUNK_BYTES = 64 * 1024;

/**
 * zip.js's reader interface over a ByteSource: `readUint8Array` for headers, and `readable`, a stream on
 * which zip.js sets `offset` and `size` of the entry data it wants before reading it.
 */
class ZipSourceReader {
  size = 0;
  constructor(private readonly source: ByteSource) {}
  async init(): Promise<void> {
    this.size = await this.source.size();
  }
  readUint8Array(offset: number, length: number): Promise<Uint8Array> {
    return this.source.read(offset, length);
  }
  get readable(): ReadableStream<Uint8Array> {
    const source = this.source;
    let done = 0;
    const stream: ReadableStream<Uint8Array> & { offset?: number; size?: number } = new ReadableStream({
      async pull(controller) {
        const offset = stream.offset ?? 0;
        const size = stream.size ?? 0;
        const length = Math.min(STREAM_CHUNK_BYTES, size - done);
        if (length > 0) controller.enqueue(await source.read(offset + done, length));
        done += Math.max(0, length);
        if (done >= size) controller.close();
      },
    });
    return stream;
  }
}

export interface ZipEntryInfo {
  filename: string;
  uncompressedSize: number;
  directory: boolean;
}

/** What foliate-js's `EPUB` constructor takes. */
export interface EpubLoader {
  entries: ZipEntryInfo[];
  loadText(name: string): Promise<string> | null;
  loadBlob(name: string, type?: string): Promise<Blob> | null;
  getSize(name: string): number;
}

export async function makeEpubLoader(source: ByteSource): Promise<EpubLoader> {
  // Entries are small and read on demand; workers would only add start-up time.
  configure({ useWebWorkers: false });
  const reader = new ZipReader(new ZipSourceReader(source));
  const entries = await reader.getEntries();
  const byName = new Map(entries.map((entry) => [entry.filename, entry]));
  return {
    entries,
    loadText: (name) => byName.get(name)?.getData?.(new TextWriter()) ?? null,
    loadBlob: (name, type) => byName.get(name)?.getData?.(new BlobWriter(type)) ?? null,
    getSize: (name) => byName.get(name)?.uncompressedSize ?? 0,
  };
}
