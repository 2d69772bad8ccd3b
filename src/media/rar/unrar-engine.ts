/**
 * Runs unrar (node-unrar-js 2.0.2's WebAssembly build, eval-free glue) over a synthetic archive
 * without ever holding the book: the archive unrar reads is assembled from in-memory headers and the
 * packed data of one entry at a time, fetched between unrar's synchronous steps. A solid chain thus
 * costs the wasm dictionary plus one entry's packed bytes, not the whole file.
 *
 * The instance is created on first use, jobs run one at a time (one isolate serves concurrent
 * requests and each job may grow the wasm heap), and the instance is dropped after an error or when
 * a job left its memory large, so the isolate gets that memory back.
 */
import { BookAnalysisError } from '../errors';
import createUnrarModule from './vendor/unrar.js';
import { unrarWasmModule } from './unrar-wasm';

interface UnrarState {
  errCode: number;
  errType: number;
}

interface RarArchiveHandle {
  open(path: string, password: string, listOnly: boolean): { state: UnrarState };
  getFileHeader(): { state: UnrarState };
  readFile(skip: boolean): UnrarState;
  delete(): void;
}

/** The callbacks unrar's file layer calls (jsOpen, jsRead… in the glue). */
interface UnrarHost {
  open(name: string): number;
  create(name: string): number;
  close(fd: number): void;
  read(fd: number, pointer: number, size: number): number;
  write(fd: number, pointer: number, size: number): boolean;
  tell(fd: number): number;
  seek(fd: number, position: number, method: string): boolean;
}

interface UnrarModule {
  RarArchive: new () => RarArchiveHandle;
  HEAPU8: Uint8Array;
  extractor: UnrarHost;
}

/** A wasm heap above this after a job is released rather than kept for the next one. */
const RECYCLE_ABOVE = 24 * 1024 * 1024;
/**
 * Ceiling for the wasm heap (enforced by the patched glue): the largest window rar-extract.ts hands
 * over (32 MiB → 37.5 MiB heap) plus room for a RAR 2.9 PPMd model of up to ~30 MiB; a larger model
 * fails as "out of memory" instead of growing the isolate past its limit.
 */
const MAX_HEAP = 48 * 1024 * 1024;
const ERAR_END_ARCHIVE = 10;
const ERAR_NO_MEMORY = 11;
const ARCHIVE_NAME = 'book.rar';
const ARCHIVE_FD = 1;
const OUTPUT_FD = 2;

const UNRAR_MESSAGES: Record<number, string> = {
  [ERAR_END_ARCHIVE]: 'the archive ends before the entry',
  12: 'the packed data is damaged or the checksum does not match',
  13: 'unrar does not recognise the archive',
  14: 'the archive uses an unknown format',
  22: 'the entry is encrypted',
  24: 'the entry is encrypted',
};

let instance: Promise<UnrarModule> | null = null;
let instancesCreated = 0;
let peakHeapBytes = 0;
let queue: Promise<unknown> = Promise.resolve();

function loadInstance(): Promise<UnrarModule> {
  instancesCreated += 1;
  const module = unrarWasmModule();
  // The glue does not pass on a failed asynchronous instantiation, so it is wired to the promise here.
  return new Promise((resolve, reject) => {
    createUnrarModule({
      print: () => {},
      printErr: () => {},
      maxHeapBytes: MAX_HEAP,
      instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance) => void) {
        WebAssembly.instantiate(module, imports).then(receive, reject);
        return {};
      },
    }).then((unrar) => resolve(unrar as UnrarModule), reject);
  });
}

/** Diagnostics for tests and metrics: instances created, live wasm heap, largest heap a job reached. */
export async function unrarStats(): Promise<{ instancesCreated: number; heapBytes: number; peakHeapBytes: number }> {
  const live = instance ? await instance.catch(() => null) : null;
  return { instancesCreated, heapBytes: live?.HEAPU8.length ?? 0, peakHeapBytes };
}

/** One segment of the synthetic archive: bytes in memory, or a range of the book fetched on demand. */
export interface ArchivePart {
  length: number;
  bytes: Uint8Array | null;
  load?: () => Promise<Uint8Array>;
}

/** The synthetic archive as unrar sees it: a seekable file whose data parts are loaded step by step. */
class PartedFile {
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
class OutputSink {
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

function hostFor(unrar: UnrarModule, file: PartedFile, sink: OutputSink): UnrarHost {
  return {
    open: (name) => (name === ARCHIVE_NAME ? ARCHIVE_FD : 0),
    create: () => OUTPUT_FD,
    close: () => {},
    read: (fd, pointer, size) => (fd === ARCHIVE_FD ? file.readInto(unrar.HEAPU8, pointer, size) : -1),
    write: (fd, pointer, size) => fd === OUTPUT_FD && sink.write(unrar.HEAPU8, pointer, size),
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

function unrarFailure(state: UnrarState, entryName: string): BookAnalysisError {
  if (state.errCode === ERAR_NO_MEMORY) {
    return new BookAnalysisError(
      'dictionary_too_large',
      `The entry ${entryName} needs more memory to decompress than the server has; repack the book as a CBZ`,
    );
  }
  const why = UNRAR_MESSAGES[state.errCode] ?? `unrar error ${state.errCode}`;
  if (state.errCode === 12) {
    return new BookAnalysisError('crc_mismatch', `The entry ${entryName} is damaged (${why})`);
  }
  return new BookAnalysisError('corrupt', `The entry ${entryName} could not be decompressed (${why})`);
}

export interface UnrarJob {
  /** The synthetic archive; part `dataParts[i]` holds entry i's packed data. */
  parts: ArchivePart[];
  dataParts: number[];
  /** Size of the last entry, the one wanted; the entries before it are only decompressed (solid). */
  expectedSize: number;
  entryName: string;
}

async function runJob(job: UnrarJob): Promise<Uint8Array> {
  instance ??= loadInstance();
  const unrar = await instance.catch((error: unknown) => {
    instance = null;
    throw new BookAnalysisError('corrupt', `The decompressor could not start (${String(error)})`);
  });
  const file = new PartedFile(job.parts);
  const sink = new OutputSink(job.expectedSize);
  const host = hostFor(unrar, file, sink);
  unrar.extractor = host;
  const archive = new unrar.RarArchive();
  try {
    const opened = archive.open(ARCHIVE_NAME, '', false).state;
    if (opened.errCode !== 0) throw unrarFailure(opened, job.entryName);
    for (let i = 0; i < job.dataParts.length; i++) {
      const part = job.parts[job.dataParts[i]!]!;
      part.bytes = (await part.load?.()) ?? part.bytes;
      // Other requests may have run while this one awaited its data: point the glue back at us.
      unrar.extractor = host;
      const header = archive.getFileHeader().state;
      if (header.errCode !== 0) throw unrarFailure(header, job.entryName);
      const last = i === job.dataParts.length - 1;
      const done = archive.readFile(!last);
      if (done.errCode !== 0) throw unrarFailure(done, job.entryName);
      part.bytes = null;
    }
    if (sink.length !== job.expectedSize) {
      throw new BookAnalysisError('corrupt', `The entry ${job.entryName} decompressed to an unexpected size`);
    }
    return sink.bytes();
  } catch (error) {
    instance = null;
    throw error instanceof BookAnalysisError
      ? error
      : new BookAnalysisError('corrupt', `The entry ${job.entryName} could not be decompressed (${String(error)})`);
  } finally {
    peakHeapBytes = Math.max(peakHeapBytes, unrar.HEAPU8.length);
    try {
      archive.delete();
    } catch {
      instance = null;
    }
    if (instance && unrar.HEAPU8.length > RECYCLE_ABOVE) instance = null;
  }
}

/** Decompresses the last entry of `job`; one job at a time per isolate. */
export function unrarExtract(job: UnrarJob): Promise<Uint8Array> {
  const result = queue.then(() => runJob(job));
  queue = result.catch(() => {});
  return result;
}
