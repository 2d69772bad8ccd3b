/**
 * PDFium (@embedpdf/pdfium) for one isolate: loaded on the first PDF job, with at most one document open.
 * `FPDF_LoadMemDocument` parses from a buffer it does not copy, so the whole PDF lives in the wasm heap
 * for as long as the document is open; files above MAX_PDF_BYTES are refused (a 20.8 MB PDF already
 * took 54 MB of wasm, edge-feasibility §2). Jobs run one at a time so two large PDFs never meet in memory.
 * The last document stays open for the next page of the same file while PDFium's heap is under
 * MAX_RETAINED_HEAP_BYTES; otherwise document and instance are dropped after the job.
 */
import { init, type WrappedPdfiumModule } from '@embedpdf/pdfium';
import pdfiumModule from '@embedpdf/pdfium/pdfium.wasm';
import { formatMiB, RenderFailure } from '../errors';
import { recoveryTrailer } from './recovery-trailer';
import { startEmscripten } from '../emscripten';
import { forgetInstance, isOversized, memoryOf } from '../wasm-instances';

const NAME = 'pdfium';
export const MAX_PDF_BYTES = 40 * 1024 * 1024;
const MAX_RETAINED_HEAP_BYTES = 64 * 1024 * 1024;
const FPDF_ERR_PASSWORD = 4;

export interface OpenDocument {
  pdfium: WrappedPdfiumModule;
  memory: WebAssembly.Memory;
  handle: number;
  pageCount: number;
}

interface CachedDocument extends OpenDocument {
  key: string;
  etag: string;
  buffer: number;
}

let pdfium: Promise<WrappedPdfiumModule> | null = null;
let cached: CachedDocument | null = null;
let queue: Promise<unknown> = Promise.resolve();

async function library(): Promise<WrappedPdfiumModule> {
  pdfium ??= startEmscripten(NAME, init as (o: object) => Promise<WrappedPdfiumModule>, pdfiumModule).then((module) => {
    module.PDFiumExt_Init();
    return module;
  });
  return pdfium;
}

function closeCached(): void {
  if (!cached) return;
  cached.pdfium.FPDF_CloseDocument(cached.handle);
  cached.pdfium.pdfium.wasmExports.free(cached.buffer);
  cached = null;
}

/** Copies the R2 object's body into the wasm heap chunk by chunk (the PDF is never whole in JS). */
async function copyIntoHeap(module: WrappedPdfiumModule, body: ReadableStream<Uint8Array>, size: number) {
  const buffer = module.pdfium.wasmExports.malloc(Math.max(size, 1));
  if (buffer === 0) throw new RenderFailure('too_large', `The PDF (${formatMiB(size)}) does not fit in memory`);
  let offset = 0;
  try {
    for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
      if (offset + chunk.byteLength > size) throw new Error('R2 body longer than its declared size');
      new Uint8Array(memoryOf(NAME).buffer, buffer + offset, chunk.byteLength).set(chunk);
      offset += chunk.byteLength;
    }
    if (offset !== size) throw new Error('R2 body shorter than its declared size');
    return buffer;
  } catch (error) {
    module.pdfium.wasmExports.free(buffer);
    throw error;
  }
}

async function open(bucket: R2Bucket, key: string): Promise<OpenDocument> {
  const head = await bucket.head(key);
  if (!head) throw new RenderFailure('pdf_not_found', 'The PDF file is missing from the library storage');
  if (cached && cached.key === key && cached.etag === head.etag) return cached;
  if (head.size > MAX_PDF_BYTES) {
    throw new RenderFailure(
      'too_large',
      `The PDF is ${formatMiB(head.size)}; pages of PDFs over ${formatMiB(MAX_PDF_BYTES)} cannot be rendered on the server`,
    );
  }
  const module = await library();
  closeCached();
  const object = await bucket.get(key, { onlyIf: { etagMatches: head.etag } });
  if (!object || !('body' in object))
    throw new RenderFailure('pdf_not_found', 'The PDF file changed while it was being read');
  let buffer = await copyIntoHeap(module, object.body, head.size);
  let handle = module.FPDF_LoadMemDocument(buffer, head.size, '');
  if (handle === 0 && module.FPDF_GetLastError() !== FPDF_ERR_PASSWORD) {
    ({ buffer, handle } = openWithRecoveryTrailer(module, buffer, head.size));
  }
  if (handle === 0) {
    const error = module.FPDF_GetLastError();
    module.pdfium.wasmExports.free(buffer);
    if (error === FPDF_ERR_PASSWORD) throw new RenderFailure('pdf_encrypted', 'The PDF is password-protected');
    throw new RenderFailure('corrupt_input', 'The PDF is damaged and cannot be opened');
  }
  cached = {
    pdfium: module,
    memory: memoryOf(NAME),
    handle,
    pageCount: module.FPDF_GetPageCount(handle),
    key,
    etag: head.etag,
    buffer,
  };
  return cached;
}

/**
 * Second try for a file PDFium refused: the same bytes with a rebuilt xref section and trailer appended
 * (recovery-trailer.ts). Returns the buffer to free later and the handle (0 when it still fails).
 */
function openWithRecoveryTrailer(module: WrappedPdfiumModule, buffer: number, size: number) {
  const trailer = recoveryTrailer(new Uint8Array(memoryOf(NAME).buffer, buffer, size));
  if (!trailer) return { buffer, handle: 0 };
  const repaired = module.pdfium.wasmExports.malloc(size + trailer.length);
  if (repaired === 0) return { buffer, handle: 0 };
  const heap = new Uint8Array(memoryOf(NAME).buffer); // after malloc: the heap may have grown
  heap.copyWithin(repaired, buffer, buffer + size);
  heap.set(trailer, repaired + size);
  module.pdfium.wasmExports.free(buffer);
  return { buffer: repaired, handle: module.FPDF_LoadMemDocument(repaired, size + trailer.length, '') };
}

function reset(): void {
  cached = null;
  pdfium = null;
  forgetInstance(NAME);
}

/** Drops the document and the instance when the heap grew too large to keep (it never shrinks). */
function trim(): void {
  if (!pdfium || !isOversized(NAME, MAX_RETAINED_HEAP_BYTES)) return;
  closeCached();
  reset();
}

/** Runs `use` on the opened PDF, one job at a time per isolate. */
export function withPdfDocument<T>(
  bucket: R2Bucket,
  key: string,
  use: (document: OpenDocument) => Promise<T>,
): Promise<T> {
  const job = queue.then(async () => {
    try {
      return await use(await open(bucket, key));
    } catch (error) {
      if (!(error instanceof RenderFailure)) reset(); // a trap may have left PDFium half-way through a call
      throw error;
    } finally {
      trim();
    }
  });
  queue = job.catch(() => undefined);
  return job;
}
