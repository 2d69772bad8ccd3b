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
import { type ArchivePart, ARCHIVE_NAME, hostFor, OutputSink, PartedFile, type UnrarHost } from './unrar-host';
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
const ERAR_BAD_DATA = 12;

const UNRAR_MESSAGES: Record<number, string> = {
  [ERAR_END_ARCHIVE]: 'the archive ends before the entry',
  [ERAR_BAD_DATA]: 'the packed data is damaged or the checksum does not match',
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

function unrarFailure(state: UnrarState, entryName: string): BookAnalysisError {
  if (state.errCode === ERAR_NO_MEMORY) {
    return new BookAnalysisError(
      'dictionary_too_large',
      `The entry ${entryName} needs more memory to decompress than the server has; repack the book as a CBZ`,
    );
  }
  const why = UNRAR_MESSAGES[state.errCode] ?? `unrar error ${state.errCode}`;
  if (state.errCode === ERAR_BAD_DATA) {
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
  // Safe to set per job: jobs never overlap (unrarExtract queues them).
  unrar.extractor = hostFor(() => unrar.HEAPU8, file, sink);
  const archive = new unrar.RarArchive();
  try {
    const opened = archive.open(ARCHIVE_NAME, '', false).state;
    if (opened.errCode !== 0) throw unrarFailure(opened, job.entryName);
    for (let i = 0; i < job.dataParts.length; i++) {
      const part = job.parts[job.dataParts[i]!]!;
      part.bytes = (await part.load?.()) ?? part.bytes;
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
