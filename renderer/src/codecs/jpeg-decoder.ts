/**
 * JPEG decoding with libjpeg-turbo's TurboJPEG API (@cwasm/jpeg-turbo: a raw wasm file exporting
 * tjDecompressHeader3/tjDecompress2; its own JS wrapper needs `fs`, hence this glue).
 *
 * The decoder scales in the DCT domain: asking tjDecompress2 for ceil(W·k/8) × ceil(H·k/8) makes it decode
 * at exactly k/8, which is 2–4× faster than a full decode and never materialises the full-size image
 * (edge-feasibility §1: 1988×3056 → 1/2 in 42 ms instead of 85 ms, 24 MB less memory).
 *
 * Errors: libjpeg reports fatal errors through longjmp, which is stubbed to throw; the throw unwinds past
 * the C stack pointer, so the instance is discarded after any failure. A non-zero return without a throw
 * is only a warning (e.g. a truncated scan) and the decoded picture is kept, as browsers show it.
 */
import jpegTurboModule from '@cwasm/jpeg-turbo/jpeg-turbo.wasm';
import { corruptImage } from '../errors';
import type { Channels, Raster } from '../raster';
import { forgetInstance, instantiate, isOversized } from '../wasm-instances';

const NAME = 'jpeg-turbo-decoder';
const TJPF_RGB = 0;
const TJPF_GRAY = 6;
const TJPF_CMYK = 11;
const TJSAMP_GRAY = 3;
const TJCS_CMYK = 3;
const TJCS_YCCK = 4;

interface TurboJpegExports {
  memory: WebAssembly.Memory;
  malloc(size: number): number;
  free(pointer: number): void;
  tjInitDecompress(): number;
  tjDestroy(handle: number): number;
  tjDecompressHeader3(handle: number, jpeg: number, size: number, w: number, h: number, ss: number, cs: number): number;
  tjDecompress2(
    handle: number,
    jpeg: number,
    size: number,
    out: number,
    w: number,
    pitch: number,
    h: number,
    pf: number,
    flags: number,
  ): number;
}

export interface JpegHeader {
  width: number;
  height: number;
  /** Decoded channels: 1 for grayscale JPEGs, 3 otherwise (CMYK is converted to RGB). */
  channels: Channels;
}

class LongJump extends Error {}

const fail = () => {
  throw new LongJump();
};
const imports: WebAssembly.Imports = {
  env: { setjmp: () => 0, longjmp: fail },
  wasi_snapshot_preview1: {
    environ_sizes_get: () => 0,
    environ_get: fail,
    proc_exit: fail,
    fd_close: fail,
    fd_seek: fail,
    fd_write: fail,
  },
};

let current: TurboJpegExports | null = null;

function decoder(): TurboJpegExports {
  current ??= instantiate(NAME, jpegTurboModule, imports).exports as unknown as TurboJpegExports;
  return current;
}

function discard(): void {
  current = null;
  forgetInstance(NAME);
}

/** Smallest k/8 (k = 1..8) whose scaled size still covers `minWidth` × `minHeight`. */
export function dctScale(width: number, height: number, minWidth: number, minHeight: number): number {
  for (let k = 1; k < 8; k++) {
    if (Math.ceil((width * k) / 8) >= minWidth && Math.ceil((height * k) / 8) >= minHeight) return k;
  }
  return 8;
}

export function scaledSize(width: number, height: number, k: number) {
  return { width: Math.ceil((width * k) / 8), height: Math.ceil((height * k) / 8) };
}

interface Session {
  tj: TurboJpegExports;
  handle: number;
  input: number;
  size: number;
  header: JpegHeader & { cmyk: boolean };
}

/** Copies the JPEG into the wasm heap, reads its header, and always releases everything afterwards. */
function withSession<T>(jpeg: Uint8Array, use: (session: Session) => T): T {
  const tj = decoder();
  let handle = 0;
  let input = 0;
  let meta = 0;
  try {
    handle = tj.tjInitDecompress();
    input = tj.malloc(jpeg.byteLength);
    meta = tj.malloc(16);
    if (handle === 0 || input === 0 || meta === 0) throw new Error('libjpeg-turbo could not allocate memory');
    new Uint8Array(tj.memory.buffer, input, jpeg.byteLength).set(jpeg);
    if (tj.tjDecompressHeader3(handle, input, jpeg.byteLength, meta, meta + 4, meta + 8, meta + 12) !== 0) {
      throw corruptImage('JPEG', 'unreadable header');
    }
    const [width, height, subsampling, colorspace] = new Int32Array(tj.memory.buffer, meta, 4);
    const cmyk = colorspace === TJCS_CMYK || colorspace === TJCS_YCCK;
    const channels: Channels = subsampling === TJSAMP_GRAY ? 1 : 3;
    const header = { width: width!, height: height!, channels, cmyk };
    const result = use({ tj, handle, input, size: jpeg.byteLength, header });
    tj.free(meta);
    tj.free(input);
    tj.tjDestroy(handle);
    if (isOversized(NAME)) discard();
    return result;
  } catch (error) {
    discard();
    if (error instanceof LongJump) throw corruptImage('JPEG');
    throw error;
  }
}

export function readJpegHeader(jpeg: Uint8Array): JpegHeader {
  return withSession(jpeg, ({ header }) => ({ width: header.width, height: header.height, channels: header.channels }));
}

/**
 * Decodes at the smallest DCT scale covering `minWidth` × `minHeight` and passes the pixels to `use`.
 * `raster.data` is a view into the decoder's memory, valid only during `use` (no second full copy).
 * `checkBudget` sees the scaled size before any pixel memory is allocated.
 */
export function withDecodedJpeg<T>(
  jpeg: Uint8Array,
  minWidth: number,
  minHeight: number,
  checkBudget: (width: number, height: number, channels: Channels) => void,
  use: (raster: Raster) => T,
): T {
  return withSession(jpeg, ({ tj, handle, input, size, header }) => {
    const k = dctScale(header.width, header.height, minWidth, minHeight);
    const { width, height } = scaledSize(header.width, header.height, k);
    const decodedChannels = header.cmyk ? 4 : header.channels;
    checkBudget(width, height, decodedChannels);
    const bytes = width * height * decodedChannels;
    const output = tj.malloc(bytes);
    if (output === 0) throw new Error('libjpeg-turbo could not allocate memory');
    try {
      const format = header.cmyk ? TJPF_CMYK : header.channels === 1 ? TJPF_GRAY : TJPF_RGB;
      tj.tjDecompress2(handle, input, size, output, width, 0, height, format, 0); // non-zero: warning only
      const pixels = new Uint8Array(tj.memory.buffer, output, bytes);
      const data = header.cmyk ? adobeCmykToRgb(pixels) : pixels;
      return use({ width, height, channels: header.channels, data });
    } finally {
      tj.free(output);
    }
  });
}

/** CMYK JPEGs come from Adobe software, which stores the inks inverted: R = C·K/255 on the stored values. */
function adobeCmykToRgb(cmyk: Uint8Array): Uint8Array {
  const rgb = new Uint8Array((cmyk.length / 4) * 3);
  for (let i = 0, o = 0; i < cmyk.length; i += 4, o += 3) {
    const k = cmyk[i + 3]!;
    rgb[o] = (cmyk[i]! * k + 127) / 255;
    rgb[o + 1] = (cmyk[i + 1]! * k + 127) / 255;
    rgb[o + 2] = (cmyk[i + 2]! * k + 127) / 255;
  }
  return rgb;
}
