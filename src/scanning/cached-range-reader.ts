/**
 * Analysing a book reads some regions twice: the format check reads the first KiB, the ZIP directory
 * the last 64 KiB, and ComicInfo.xml is usually the first or the last entry, inside one of them. This
 * wrapper keeps what was read (bounded) and answers ranges lying inside it from memory, so a typical
 * CBZ costs two ranged R2 gets instead of three. The object is pinned by the inner reader, so the
 * remembered bytes are the ones R2 would return again.
 */
import type { RangeReader } from '../media/range-reader';

/** Enough for the head, the tail window and a large central directory; never a page's worth. */
const DEFAULT_MAX_BYTES = 256 * 1024;

export function cachedRangeReader(inner: RangeReader, maxBytes = DEFAULT_MAX_BYTES): RangeReader {
  const regions: Array<{ offset: number; bytes: Uint8Array }> = [];
  let kept = 0;

  const lookup = (offset: number, length: number): Uint8Array | null => {
    for (const region of regions) {
      const from = offset - region.offset;
      if (from >= 0 && from + length <= region.bytes.length) return region.bytes.slice(from, from + length);
    }
    return null;
  };

  return {
    size: inner.size,
    async read(offset, length) {
      const cached = length > 0 ? lookup(offset, length) : null;
      if (cached) return cached;
      const bytes = await inner.read(offset, length);
      if (kept + bytes.length <= maxBytes) {
        regions.push({ offset, bytes: bytes.slice() });
        kept += bytes.length;
      }
      return bytes;
    },
    async stream(offset, length) {
      const cached = length > 0 ? lookup(offset, length) : null;
      if (!cached) return inner.stream(offset, length);
      return new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(cached);
          controller.close();
        },
      });
    },
  };
}
