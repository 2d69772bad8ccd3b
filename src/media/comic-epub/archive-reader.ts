/**
 * The images' data read from the archive front to back, with as few range reads as that takes. The EPUB lays
 * its images out in the order their data sits in the archive (layout.ts), and comic archives keep their pages
 * one after another, so one ranged R2 read streams them all: a ZIP entry's local header is read as it passes
 * (its name and extra field are skipped, the data follows), a stored RAR entry's data is at a known place, and
 * what lies between two pages (a data descriptor, ComicInfo.xml, RAR headers) is read past. Only a page far
 * from the previous one starts a new read. A RAR page compressed in the archive is unpacked by unrar, as
 * serving it does (image-sources.ts).
 *
 * A page's stream does nothing until it is read, so the writer may ask for the next page while the current one
 * streams; the shared read moves on only as the pages are consumed, one after the other.
 */
import type { JsonValue } from '../container';
import { BookAnalysisError, truncatedError } from '../errors';
import type { RangeReader } from '../range-reader';
import { type ImageSource, openImageData } from './image-sources';

/** What the EPUB stream reads its images with (stream.ts). */
export interface ImageReader {
  open(image: { source: ImageSource; redraw: { sourcePage: number } | null }): Promise<ReadableStream<Uint8Array>>;
  /** Ends the shared read (the response finished, failed or was cancelled). */
  close(): Promise<void>;
}

/** Bytes read past between two pages rather than starting a new read (an R2 read costs a round trip). */
const MAX_GAP = 256 * 1024;
const CHUNK = 64 * 1024;
const LOCAL_SIG = 0x04034b50;

const pageMoved = () =>
  new BookAnalysisError(
    'page_not_found',
    'The page is not where the book index says; the book needs to be analysed again',
  );

export function archiveImageReader(reader: RangeReader, containerIndex: JsonValue | null): ImageReader {
  let run: { source: ReadableStreamDefaultReader<Uint8Array>; position: number; pending: Uint8Array } | null = null;

  const current = () => {
    if (!run) throw new Error('no read in progress');
    return run;
  };
  async function startAt(offset: number): Promise<void> {
    await run?.source.cancel().catch(() => {});
    if (offset >= reader.size) throw pageMoved();
    const stream = await reader.stream(offset, reader.size - offset);
    run = { source: stream.getReader(), position: offset, pending: new Uint8Array(0) };
  }
  /** The next bytes of the read, at most `max`. */
  async function take(max: number): Promise<Uint8Array> {
    const r = current();
    if (r.pending.length === 0) {
      const { done, value } = await r.source.read();
      if (done) throw truncatedError();
      r.pending = value;
    }
    const out = r.pending.subarray(0, max);
    r.pending = r.pending.subarray(out.length);
    r.position += out.length;
    return out;
  }
  async function skip(length: number): Promise<void> {
    for (let left = length; left > 0; ) left -= (await take(left)).length;
  }
  async function exactly(length: number): Promise<Uint8Array> {
    const out = new Uint8Array(length);
    for (let at = 0; at < length; ) {
      const part = await take(length - at);
      out.set(part, at);
      at += part.length;
    }
    return out;
  }
  /** The read at `offset`: read on to it when it is a little ahead, else a new read from there. */
  async function seek(offset: number): Promise<void> {
    if (run && offset >= run.position && offset - run.position <= MAX_GAP) await skip(offset - run.position);
    else await startAt(offset);
  }
  /** `length` bytes of the shared read, once `toData` has placed it at their start. */
  function slice(toData: () => Promise<void>, length: number): ReadableStream<Uint8Array> {
    let started = false;
    let left = length;
    return new ReadableStream<Uint8Array>(
      {
        async pull(controller) {
          if (!started) {
            started = true;
            await toData();
          }
          if (left > 0) {
            const chunk = await take(Math.min(left, CHUNK));
            left -= chunk.length;
            controller.enqueue(chunk);
          }
          if (left === 0) controller.close();
        },
        // No cancel: the shared read goes on for the next page; close() ends it.
      },
      // Nothing is pulled before the page is read: a page opened ahead must not move the shared read.
      { highWaterMark: 0 },
    );
  }

  return {
    async open({ source }) {
      if (source.kind === 'zip') {
        const { entry } = source;
        return slice(async () => {
          await seek(entry.offset);
          const header = await exactly(30);
          const v = new DataView(header.buffer, header.byteOffset, header.byteLength);
          if (v.getUint32(0, true) !== LOCAL_SIG) throw pageMoved();
          await skip(v.getUint16(26, true) + v.getUint16(28, true));
        }, entry.compressedSize);
      }
      if (source.ref.method === 0) return slice(() => seek(source.ref.dataOffset), source.ref.packedSize);
      return openImageData(reader, source, containerIndex);
    },
    async close() {
      await run?.source.cancel().catch(() => {});
      run = null;
    },
  };
}
