/**
 * Decoding the streams the structure reader itself needs (xref streams, object streams, page
 * content): FlateDecode with PNG/TIFF predictors, through the runtime's DecompressionStream. Image
 * streams are never decoded here — they are served as stored or rendered elsewhere.
 */
import { isDict, isName, isNumber, type PdfDict, type PdfValue } from './objects';

export class UnsupportedFilter extends Error {}

/** Inflate a zlib stream; a damaged tail (common in real PDFs) keeps what was decoded before it. */
async function inflate(data: Uint8Array, maxSize: number): Promise<Uint8Array> {
  const source = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(data);
      controller.close();
    },
  });
  const stream = source.pipeThrough(
    new DecompressionStream('deflate') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>,
  );
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > maxSize) throw new UnsupportedFilter('decoded stream is too large');
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof UnsupportedFilter) throw error;
    if (total === 0) throw new UnsupportedFilter('the compressed data is damaged');
  } finally {
    reader.cancel().catch(() => {});
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

function unpredict(data: Uint8Array, params: PdfDict | null): Uint8Array {
  const predictor = params?.get('Predictor');
  if (!isNumber(predictor) || predictor < 2) return data;
  const colors = (params!.get('Colors') as number) || 1;
  const bits = (params!.get('BitsPerComponent') as number) || 8;
  const columns = (params!.get('Columns') as number) || 1;
  const bpp = Math.max(1, Math.ceil((colors * bits) / 8));
  const rowLength = Math.ceil((colors * bits * columns) / 8);
  if (predictor === 2) {
    if (bits !== 8) throw new UnsupportedFilter('TIFF predictor with other than 8 bits');
    const out = data.slice();
    for (let row = 0; row + rowLength <= out.length; row += rowLength) {
      for (let i = bpp; i < rowLength; i++) out[row + i] = (out[row + i]! + out[row + i - bpp]!) & 0xff;
    }
    return out;
  }
  const rows = Math.floor(data.length / (rowLength + 1));
  const out = new Uint8Array(rows * rowLength);
  for (let r = 0; r < rows; r++) {
    const type = data[r * (rowLength + 1)]!;
    const src = r * (rowLength + 1) + 1;
    const dst = r * rowLength;
    for (let i = 0; i < rowLength; i++) {
      const raw = data[src + i]!;
      const left = i >= bpp ? out[dst + i - bpp]! : 0;
      const up = r > 0 ? out[dst - rowLength + i]! : 0;
      const upLeft = r > 0 && i >= bpp ? out[dst - rowLength + i - bpp]! : 0;
      const value =
        type === 1
          ? raw + left
          : type === 2
            ? raw + up
            : type === 3
              ? raw + ((left + up) >> 1)
              : type === 4
                ? raw + paeth(left, up, upLeft)
                : raw;
      out[dst + i] = value & 0xff;
    }
  }
  return out;
}

const asList = (value: PdfValue | undefined): PdfValue[] =>
  value === undefined || value === null ? [] : Array.isArray(value) ? value : [value];

/** Decoded stream data. Throws UnsupportedFilter for filters other than Flate (and for oversized output). */
export async function decodeStream(dict: PdfDict, raw: Uint8Array, maxSize: number): Promise<Uint8Array> {
  const filters = asList(dict.get('Filter'));
  const params = asList(dict.get('DecodeParms') ?? dict.get('DP'));
  let data = raw;
  for (const [i, filter] of filters.entries()) {
    if (!isName(filter) || (filter.name !== 'FlateDecode' && filter.name !== 'Fl')) {
      throw new UnsupportedFilter(`filter ${isName(filter) ? filter.name : '?'}`);
    }
    const param = params[i];
    data = unpredict(await inflate(data, maxSize), isDict(param) ? param : null);
  }
  return data;
}
