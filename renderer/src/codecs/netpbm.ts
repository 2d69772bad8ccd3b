/**
 * Netpbm pages (PBM, PGM, PPM: `P1`–`P6`), in plain JS: the formats are a text header over raw samples, and
 * scanners and old comic tools still put them in archives (issue 31 point 16: a CBR of PPM pages). Read
 * from the Netpbm format pages (netpbm.sourceforge.net/doc/pbm.html, pgm.html, ppm.html): the magic
 * number, then width, height and (not for PBM) maxval as decimal text, separated by whitespace and `#`
 * comments; one whitespace byte; then the samples — as text (`P1`–`P3`) or binary (`P4`–`P6`: PBM packs 8
 * pixels a byte, each row padded to a byte, 1 = black; PGM/PPM take 1 byte a sample, or 2 big-endian
 * bytes when maxval is above 255). Samples are scaled from 0…maxval to 0…255. Only the first image of a
 * file is read (the formats allow several, one after another).
 */
import { corruptImage } from '../errors';
import type { Channels, Raster } from '../raster';

export type NetpbmKind = 'pbm' | 'pgm' | 'ppm';

const KINDS: Record<string, { kind: NetpbmKind; binary: boolean }> = {
  P1: { kind: 'pbm', binary: false },
  P2: { kind: 'pgm', binary: false },
  P3: { kind: 'ppm', binary: false },
  P4: { kind: 'pbm', binary: true },
  P5: { kind: 'pgm', binary: true },
  P6: { kind: 'ppm', binary: true },
};

const isSpace = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d);

export interface NetpbmHeader {
  kind: NetpbmKind;
  binary: boolean;
  width: number;
  height: number;
  maxval: number;
  /** Where the samples start. */
  dataOffset: number;
}

/** The kind the first bytes announce (the magic number and a separator), or null. */
export function sniffNetpbm(bytes: Uint8Array): NetpbmKind | null {
  if (bytes.length < 3 || bytes[0] !== 0x50) return null;
  const found = KINDS[String.fromCharCode(bytes[0], bytes[1]!)];
  return found && (isSpace(bytes[2]!) || bytes[2] === 0x23) ? found.kind : null;
}

/** Reads decimal numbers as the header and the text formats write them, skipping whitespace and comments. */
class TextReader {
  constructor(
    private readonly bytes: Uint8Array,
    public offset: number,
  ) {}

  number(what: string): number {
    const { bytes } = this;
    while (this.offset < bytes.length) {
      const c = bytes[this.offset]!;
      if (c === 0x23) {
        while (this.offset < bytes.length && bytes[this.offset] !== 0x0a && bytes[this.offset] !== 0x0d) this.offset++;
      } else if (isSpace(c)) {
        this.offset++;
      } else {
        break;
      }
    }
    const start = this.offset;
    let value = 0;
    while (this.offset < bytes.length && bytes[this.offset]! >= 0x30 && bytes[this.offset]! <= 0x39) {
      value = value * 10 + (bytes[this.offset]! - 0x30);
      if (value > 0xffffffff) throw corruptImage('Netpbm', `its ${what} is out of range`);
      this.offset++;
    }
    if (this.offset === start) throw corruptImage('Netpbm', `its ${what} is missing`);
    return value;
  }

  /** A PBM text sample: a single 0 or 1, with or without whitespace between samples. */
  bit(): number {
    const { bytes } = this;
    while (this.offset < bytes.length) {
      const c = bytes[this.offset++]!;
      if (c === 0x30 || c === 0x31) return c - 0x30;
      if (c === 0x23) {
        while (this.offset < bytes.length && bytes[this.offset] !== 0x0a && bytes[this.offset] !== 0x0d) this.offset++;
      } else if (!isSpace(c)) {
        break;
      }
    }
    throw corruptImage('Netpbm', 'its pixels end early');
  }
}

export function readNetpbmHeader(bytes: Uint8Array): NetpbmHeader {
  const found = sniffNetpbm(bytes) && KINDS[String.fromCharCode(bytes[0]!, bytes[1]!)];
  if (!found) throw corruptImage('Netpbm', 'no Netpbm magic number');
  const reader = new TextReader(bytes, 2);
  const width = reader.number('width');
  const height = reader.number('height');
  const maxval = found.kind === 'pbm' ? 1 : reader.number('maxval');
  if (maxval < 1 || maxval > 65535) throw corruptImage('Netpbm', `its maxval ${maxval} is not 1 to 65535`);
  // One whitespace byte ends the header (before binary samples, exactly one).
  if (reader.offset >= bytes.length || !isSpace(bytes[reader.offset]!)) {
    throw corruptImage('Netpbm', 'its header is not ended');
  }
  return { ...found, width, height, maxval, dataOffset: reader.offset + 1 };
}

/** The image: 1 channel for PBM and PGM, 3 for PPM, 8 bits a sample. */
export function decodeNetpbm(bytes: Uint8Array): Raster {
  const header = readNetpbmHeader(bytes);
  const { kind, width, height, maxval } = header;
  if (width === 0 || height === 0) throw corruptImage('Netpbm', 'it has no pixels');
  const channels: Channels = kind === 'ppm' ? 3 : 1;
  const out = new Uint8Array(width * height * channels);
  if (kind === 'pbm') {
    decodeBits(bytes, header, out);
    return { width, height, channels, data: out };
  }
  const scale = (value: number) => (value >= maxval ? 255 : Math.round((value * 255) / maxval));
  if (!header.binary) {
    const reader = new TextReader(bytes, header.dataOffset - 1);
    for (let i = 0; i < out.length; i++) out[i] = scale(reader.number('pixel data'));
    return { width, height, channels, data: out };
  }
  const wide = maxval > 255;
  const needed = out.length * (wide ? 2 : 1);
  if (bytes.length - header.dataOffset < needed) throw corruptImage('Netpbm', 'its pixels end early');
  const samples = bytes.subarray(header.dataOffset, header.dataOffset + needed);
  if (wide) {
    for (let i = 0; i < out.length; i++) out[i] = scale((samples[2 * i]! << 8) | samples[2 * i + 1]!);
  } else if (maxval === 255) {
    out.set(samples);
  } else {
    for (let i = 0; i < out.length; i++) out[i] = scale(samples[i]!);
  }
  return { width, height, channels, data: out };
}

/** PBM: 1 is black, 0 white. */
function decodeBits(bytes: Uint8Array, header: NetpbmHeader, out: Uint8Array): void {
  const { width, height } = header;
  if (!header.binary) {
    const reader = new TextReader(bytes, header.dataOffset - 1);
    for (let i = 0; i < out.length; i++) out[i] = reader.bit() ? 0 : 255;
    return;
  }
  const rowBytes = Math.ceil(width / 8);
  if (bytes.length - header.dataOffset < rowBytes * height) throw corruptImage('Netpbm', 'its pixels end early');
  for (let y = 0; y < height; y++) {
    const row = header.dataOffset + y * rowBytes;
    for (let x = 0; x < width; x++) {
      const bit = (bytes[row + (x >> 3)]! >> (7 - (x & 7))) & 1;
      out[y * width + x] = bit ? 0 : 255;
    }
  }
}
