/**
 * The file layer unrar runs on (the glue's jsOpen/jsRead/jsWrite… callbacks): a seekable archive
 * made of in-memory parts, where a part holding an entry's packed data is filled just before unrar
 * reads it, and one output buffer for the wanted entry. Everything is synchronous, as unrar is.
 */

export const ARCHIVE_NAME = 'book.rar';
const ARCHIVE_FD = 1;
const OUTPUT_FD = 2;

/** The callbacks unrar's file layer calls (jsOpen, jsRead… in the glue). */
export interface UnrarHost {
  open(name: string): number;
  create(name: string): number;
  close(fd: number): void;
  read(fd: number, pointer: number, size: number): number;
  write(fd: number, pointer: number, size: number): boolean;
  tell(fd: number): number;
  seek(fd: number, position: number, method: string): boolean;
}

/** One segment of the synthetic archive: bytes in memory, or a range of the book fetched on demand. */
export interface ArchivePart {
  length: number;
  bytes: Uint8Array | null;
  load?: () => Promise<Uint8Array>;
}

/** The synthetic archive as unrar sees it: a seekable file whose data parts are loaded step by step. */
export class PartedFile {
  position = 0;
  readonly size: number;
  private readonly starts: number[] = [];

  constructor(readonly parts: ArchivePart[]) {
    let offset = 0;
    for (const part of parts) {
      this.starts.push(offset);
      offset += part.length;
    }
    this.size = offset;
  }

  /** Copies into the wasm heap; -1 when unrar reaches a part that is not loaded (never expected). */
  readInto(heap: Uint8Array, pointer: number, size: number): number {
    const end = Math.min(this.size, this.position + size);
    let copied = 0;
    for (let i = 0; i < this.parts.length && this.position < end; i++) {
      const start = this.starts[i]!;
      const part = this.parts[i]!;
      if (start + part.length <= this.position || part.length === 0) continue;
      if (!part.bytes) return -1;
      const from = this.position - start;
      const count = Math.min(part.length - from, end - this.position);
      heap.set(part.bytes.subarray(from, from + count), pointer + copied);
      copied += count;
      this.position += count;
    }
    return copied;
  }
}

/** The wanted entry's bytes, written straight into one buffer of its declared size (no second copy). */
export class OutputSink {
  private buffer: Uint8Array | null = null;
  length = 0;

  constructor(private readonly size: number) {}

  write(heap: Uint8Array, pointer: number, count: number): boolean {
    if (this.length + count > this.size) return false;
    this.buffer ??= new Uint8Array(this.size);
    this.buffer.set(heap.subarray(pointer, pointer + count), this.length);
    this.length += count;
    return true;
  }

  bytes(): Uint8Array {
    return this.buffer ?? new Uint8Array(0);
  }
}

export function hostFor(heap: () => Uint8Array, file: PartedFile, sink: OutputSink): UnrarHost {
  return {
    open: (name) => (name === ARCHIVE_NAME ? ARCHIVE_FD : 0),
    create: () => OUTPUT_FD,
    close: () => {},
    read: (fd, pointer, size) => (fd === ARCHIVE_FD ? file.readInto(heap(), pointer, size) : -1),
    write: (fd, pointer, size) => fd === OUTPUT_FD && sink.write(heap(), pointer, size),
    tell: (fd) => (fd === ARCHIVE_FD ? file.position : 0),
    seek(fd, position, method) {
      if (fd !== ARCHIVE_FD) return false;
      const target = method === 'SET' ? position : method === 'CUR' ? file.position + position : file.size - position;
      if (target < 0 || target > file.size) return false;
      file.position = target;
      return true;
    },
  };
}
