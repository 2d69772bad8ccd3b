/**
 * Little-endian reads over one header's bytes. Every read is bounds-checked, so a header that claims
 * more than it holds becomes a plain `corrupt` error instead of reading garbage or throwing RangeError.
 */
import { BookAnalysisError } from '../errors';

export const damagedHeaders = (detail: string) =>
  new BookAnalysisError('corrupt', `The RAR archive's headers are damaged (${detail})`);

export class ByteCursor {
  position: number;

  constructor(
    readonly bytes: Uint8Array,
    position = 0,
    /** Reads may not pass this index (the end of the current header). */
    readonly end = bytes.length,
  ) {
    this.position = position;
  }

  get remaining(): number {
    return this.end - this.position;
  }

  private take(count: number): number {
    if (count < 0 || this.position + count > this.end) throw damagedHeaders('a header is shorter than its fields');
    const at = this.position;
    this.position += count;
    return at;
  }

  u8(): number {
    return this.bytes[this.take(1)]!;
  }

  u16(): number {
    const at = this.take(2);
    return this.bytes[at]! | (this.bytes[at + 1]! << 8);
  }

  u32(): number {
    const at = this.take(4);
    const b = this.bytes;
    return (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;
  }

  /** RAR5 variable-length integer: 7 bits per byte, high bit = more bytes follow, at most 10 bytes. */
  vint(): number {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      const byte = this.u8();
      value += (byte & 0x7f) * scale;
      if ((byte & 0x80) === 0) {
        if (!Number.isSafeInteger(value)) throw damagedHeaders('a size field is out of range');
        return value;
      }
      scale *= 128;
    }
    throw damagedHeaders('a size field is too long');
  }

  bytesOf(count: number): Uint8Array {
    const at = this.take(count);
    return this.bytes.subarray(at, at + count);
  }

  skip(count: number): void {
    this.take(count);
  }
}
