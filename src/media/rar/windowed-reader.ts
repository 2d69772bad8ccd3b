/**
 * Small header reads over a RangeReader: one range read fetches a window, and later reads that fall
 * inside it cost nothing, so archives of many small entries do not cost one R2 request per header.
 */
import type { RangeReader } from '../range-reader';

export class WindowedReader {
  private windowStart = 0;
  private window: Uint8Array = new Uint8Array(0);

  constructor(
    readonly reader: RangeReader,
    private readonly windowSize = 4096,
  ) {}

  get size(): number {
    return this.reader.size;
  }

  /** `length` bytes at `offset`; the RangeReader reports reads past the end as truncated. */
  async bytes(offset: number, length: number): Promise<Uint8Array> {
    const from = offset - this.windowStart;
    if (from >= 0 && from + length <= this.window.length) return this.window.subarray(from, from + length);
    if (offset + length > this.reader.size) return this.reader.read(offset, length);
    const windowLength = Math.min(this.reader.size - offset, Math.max(length, this.windowSize));
    this.window = await this.reader.read(offset, windowLength);
    this.windowStart = offset;
    return this.window.subarray(0, length);
  }

  /** Up to `length` bytes at `offset`, fewer at the end of the file. */
  async upTo(offset: number, length: number): Promise<Uint8Array> {
    return this.bytes(offset, Math.max(0, Math.min(length, this.reader.size - offset)));
  }
}
