/**
 * The fast way to serve a ZIP page (CBZ, picture-book EPUB): one ranged R2 read of exactly the local
 * header and the entry data, the header checked and skipped, and the rest of R2's own stream piped
 * natively into the response (inflated by the runtime's DecompressionStream when deflated). No
 * JavaScript touches the page bytes, which makes serving a page nearly as cheap as serving a plain object
 * (docs/BENCHMARKS.md, Page serving).
 *
 * It only works when the local header is as long as the central directory predicts (`headerHint`:
 * local extra fields usually match the central ones); otherwise it says so and the caller takes the
 * general path of the format container, which copes with any header length.
 */
import type { PageLocator } from '../media/container';
import { imageMediaType } from '../media/image-types';
import { zipEntryRef } from '../media/zip/page-locator';

const LOCAL_SIGNATURE = 0x04034b50;
const STORED = 0;
const DEFLATE = 8;

export interface DirectPage {
  stream: ReadableStream<Uint8Array>;
  size: number;
  mediaType: string;
}

/** The page stream, `null` when this entry needs the general path, `'changed'` when the object's etag moved on. */
export async function openZipPageDirect(
  bucket: R2Bucket,
  key: string,
  fileSize: number,
  etag: string,
  locator: PageLocator,
): Promise<DirectPage | null | 'changed'> {
  if (locator.kind !== 'zip') return null;
  const entry = zipEntryRef(locator);
  if (entry.encrypted || (entry.method !== STORED && entry.method !== DEFLATE)) return null;
  const length = entry.headerHint + entry.compressedSize;
  if (entry.headerHint < 30 || entry.offset + length > fileSize) return null;
  const object = await bucket.get(key, { range: { offset: entry.offset, length }, onlyIf: { etagMatches: etag } });
  if (!object) return null;
  if (!('body' in object)) return 'changed';
  const reader = object.body.getReader({ mode: 'byob' });
  const { value: header } = await reader.readAtLeast(entry.headerHint, new Uint8Array(entry.headerHint));
  const view = header ? new DataView(header.buffer, header.byteOffset, header.byteLength) : null;
  const fits =
    view !== null &&
    view.byteLength === entry.headerHint &&
    view.getUint32(0, true) === LOCAL_SIGNATURE &&
    30 + view.getUint16(26, true) + view.getUint16(28, true) === entry.headerHint;
  if (!fits) {
    await reader.cancel();
    return null;
  }
  reader.releaseLock();
  // A stream something has read from cannot be a response body, but it can be piped: between two of the
  // runtime's own streams the pump runs natively, and the fixed length gives the response its size.
  const { readable: data, writable } = new FixedLengthStream(entry.compressedSize);
  object.body.pipeTo(writable).catch(() => {
    // A failed read errors `data`, which is where the response sees it.
  });
  return {
    stream:
      entry.method === STORED
        ? data
        : data.pipeThrough(
            new DecompressionStream('deflate-raw') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>,
          ),
    size: entry.size,
    mediaType: imageMediaType(entry.name) ?? 'application/octet-stream',
  };
}
