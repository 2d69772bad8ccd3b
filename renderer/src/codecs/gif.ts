/**
 * GIF pages: the first frame, in plain JS (no maintained wasm GIF decoder exists among our codecs, and the
 * format is small). The frame is placed on the logical screen; pixels it leaves uncovered and its
 * transparent index become transparent RGBA, which the JPEG path composites onto white.
 */
import { corruptImage } from '../errors';
import type { Raster } from '../raster';

const MAX_CODES = 4096;

class Reader {
  offset = 0;
  constructor(readonly bytes: Uint8Array) {}
  byte(): number {
    if (this.offset >= this.bytes.length) throw corruptImage('GIF', 'it ends early');
    return this.bytes[this.offset++]!;
  }
  u16(): number {
    return this.byte() | (this.byte() << 8);
  }
  take(length: number): Uint8Array {
    if (this.offset + length > this.bytes.length) throw corruptImage('GIF', 'it ends early');
    this.offset += length;
    return this.bytes.subarray(this.offset - length, this.offset);
  }
  /** Concatenated data sub-blocks (length byte + data, until a zero length). */
  subBlocks(): Uint8Array {
    const parts: Uint8Array[] = [];
    for (let size = this.byte(); size > 0; size = this.byte()) parts.push(this.take(size));
    const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
    let at = 0;
    for (const part of parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  }
}

/** GIF's variable-width LZW: returns `count` palette indices. */
function decompress(data: Uint8Array, minCodeSize: number, count: number): Uint8Array {
  if (minCodeSize < 2 || minCodeSize > 11) throw corruptImage('GIF', 'bad LZW code size');
  const clear = 1 << minCodeSize;
  const end = clear + 1;
  const prefix = new Uint16Array(MAX_CODES);
  const suffix = new Uint8Array(MAX_CODES);
  const first = new Uint8Array(MAX_CODES);
  const stack = new Uint8Array(MAX_CODES + 1);
  for (let code = 0; code < clear; code++) {
    suffix[code] = code;
    first[code] = code;
  }
  const out = new Uint8Array(count);
  let written = 0;
  let size = minCodeSize + 1;
  let next = end + 1;
  let previous = -1;
  let bits = 0;
  let buffer = 0;
  for (let i = 0; i < data.length && written < count; ) {
    while (bits < size && i < data.length) {
      buffer |= data[i++]! << bits;
      bits += 8;
    }
    if (bits < size) break;
    const code = buffer & ((1 << size) - 1);
    buffer >>>= size;
    bits -= size;
    if (code === clear) {
      size = minCodeSize + 1;
      next = end + 1;
      previous = -1;
      continue;
    }
    if (code === end) break;
    if (previous === -1) {
      if (code >= clear) throw corruptImage('GIF', 'bad LZW stream');
      out[written++] = code;
      previous = code;
      continue;
    }
    let current = code;
    let depth = 0;
    if (code >= next) {
      if (code > next) throw corruptImage('GIF', 'bad LZW stream');
      stack[depth++] = first[previous]!; // KwKwK: the code being defined right now
      current = previous;
    }
    while (current >= clear) {
      stack[depth++] = suffix[current]!;
      current = prefix[current]!;
    }
    stack[depth++] = current;
    while (depth > 0 && written < count) out[written++] = stack[--depth]!;
    if (next < MAX_CODES) {
      prefix[next] = previous;
      suffix[next] = current;
      first[next] = first[previous]!;
      next++;
      if (next === 1 << size && size < 12) size++;
    }
    previous = code;
  }
  return out; // a short stream leaves the rest at index 0, as browsers do
}

/** Row order of an interlaced frame: every 8th from 0, every 8th from 4, every 4th from 2, every 2nd from 1. */
function interlacedRows(height: number): number[] {
  const rows: number[] = [];
  for (const [start, step] of [
    [0, 8],
    [4, 8],
    [2, 4],
    [1, 2],
  ] as const) {
    for (let y = start; y < height; y += step) rows.push(y);
  }
  return rows;
}

export function decodeGif(bytes: Uint8Array): Raster {
  const reader = new Reader(bytes);
  reader.take(6);
  const width = reader.u16();
  const height = reader.u16();
  const screenFlags = reader.byte();
  reader.take(2);
  let palette = screenFlags & 0x80 ? reader.take(3 << ((screenFlags & 7) + 1)) : null;
  let transparent = -1;
  for (;;) {
    const block = reader.byte();
    if (block === 0x3b) throw corruptImage('GIF', 'it has no frame');
    if (block === 0x21) {
      const label = reader.byte();
      const body = reader.subBlocks();
      if (label === 0xf9 && body.length >= 4 && body[0]! & 1) transparent = body[3]!;
      continue;
    }
    if (block !== 0x2c) throw corruptImage('GIF', 'unknown block');
    const left = reader.u16();
    const top = reader.u16();
    const frameWidth = reader.u16();
    const frameHeight = reader.u16();
    const frameFlags = reader.byte();
    if (frameFlags & 0x80) palette = reader.take(3 << ((frameFlags & 7) + 1));
    if (!palette) throw corruptImage('GIF', 'it has no colour table');
    const minCodeSize = reader.byte();
    const indices = decompress(reader.subBlocks(), minCodeSize, frameWidth * frameHeight);
    const rows = frameFlags & 0x40 ? interlacedRows(frameHeight) : null;
    const data = new Uint8Array(width * height * 4);
    for (let row = 0; row < frameHeight; row++) {
      const y = top + (rows ? rows[row]! : row);
      if (y >= height) continue;
      for (let x = 0; x < frameWidth && left + x < width; x++) {
        const index = indices[row * frameWidth + x]!;
        if (index === transparent || index * 3 + 2 >= palette.length) continue;
        const o = (y * width + left + x) * 4;
        data[o] = palette[index * 3]!;
        data[o + 1] = palette[index * 3 + 1]!;
        data[o + 2] = palette[index * 3 + 2]!;
        data[o + 3] = 255;
      }
    }
    return { width, height, channels: 4, data };
  }
}
