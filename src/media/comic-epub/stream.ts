/**
 * A byte range of a comic EPUB (layout.ts) as a stream: made bytes are sliced, image data is read from the
 * archive (archive-reader.ts: front to back, one read for pages that follow one another), and only the images
 * the range touches are opened. While one image streams, the next one is already being opened (what a page
 * unrar must unpack needs). Memory stays at the chunks in flight (one page at most, for such a page).
 *
 * An image whose data ends early errors the stream: the client sees a failed download, never a complete-
 * looking EPUB with a hole in it.
 */
import { truncatedError } from '../errors';
import type { ImageReader } from './archive-reader';
import type { ComicEpubLayout, Segment } from './layout';

export interface ByteSpan {
  offset: number;
  length: number;
}

export function comicEpubStream(
  layout: ComicEpubLayout,
  span: ByteSpan,
  images: ImageReader,
): ReadableStream<Uint8Array> {
  const end = span.offset + span.length;
  const parts = layout.segments.filter((s) => s.offset < end && s.offset + s.length > span.offset);
  let index = 0;
  let current: { reader: ReadableStreamDefaultReader<Uint8Array>; skip: number; remaining: number } | null = null;
  const opened = new Map<number, Promise<ReadableStream<Uint8Array>>>();

  const openAt = (at: number): Promise<ReadableStream<Uint8Array>> => {
    let pending = opened.get(at);
    if (!pending) {
      const segment = parts[at] as Extract<Segment, { kind: 'image' }>;
      pending = images.open(segment.image);
      // Awaited when its turn comes; until then a failure must not count as unhandled.
      pending.catch(() => {});
      opened.set(at, pending);
    }
    return pending;
  };
  const prefetchAfter = (at: number) => {
    const next = parts.findIndex((s, i) => i > at && s.kind === 'image');
    if (next >= 0) void openAt(next);
  };
  const release = async () => {
    await current?.reader.cancel().catch(() => {});
    current = null;
    for (const [at, pending] of opened) {
      if (at >= index) void pending.then((stream) => stream.cancel()).catch(() => {});
    }
    opened.clear();
    await images.close();
  };

  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        while (true) {
          if (current) {
            const { done, value } = await current.reader.read();
            if (done) throw truncatedError();
            let chunk = value;
            if (current.skip > 0) {
              const dropped = Math.min(current.skip, chunk.length);
              current.skip -= dropped;
              chunk = chunk.subarray(dropped);
            }
            if (chunk.length === 0) continue;
            if (chunk.length > current.remaining) chunk = chunk.subarray(0, current.remaining);
            current.remaining -= chunk.length;
            controller.enqueue(chunk);
            if (current.remaining === 0) {
              await current.reader.cancel().catch(() => {});
              current = null;
              opened.delete(index);
              index += 1;
            }
            return;
          }
          const segment = parts[index];
          if (!segment) {
            await images.close();
            controller.close();
            return;
          }
          const from = Math.max(0, span.offset - segment.offset);
          const to = Math.min(segment.length, end - segment.offset);
          if (segment.kind === 'bytes') {
            index += 1;
            controller.enqueue(segment.bytes.subarray(from, to));
            return;
          }
          if (to <= from) {
            index += 1;
            continue;
          }
          const stream = await openAt(index);
          prefetchAfter(index);
          current = { reader: stream.getReader(), skip: from, remaining: to - from };
        }
      } catch (error) {
        await release();
        throw error;
      }
    },
    async cancel() {
      await release();
    },
  });
}
