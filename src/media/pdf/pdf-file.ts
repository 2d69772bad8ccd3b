/**
 * Byte access for the PDF reader: an aligned block cache over the RangeReader (neighbouring small
 * objects cost one read, concurrent lookups of the same block share it) and parsing of one
 * indirect object at a file offset, widening the window until the object fits.
 */
import { BookAnalysisError } from '../errors';
import type { RangeReader } from '../range-reader';
import { isDict, Keyword, Lexer, NeedMoreBytes, type PdfDict, type PdfValue } from './objects';

const BLOCK = 8 * 1024;
/** Cached blocks before the cache is dropped (4 MiB). */
const MAX_BLOCKS = 512;
/** A single dictionary larger than this is not a real PDF object. */
const MAX_OBJECT_WINDOW = 8 * 1024 * 1024;

export const damaged = (what: string) => new BookAnalysisError('corrupt', `The PDF is damaged: ${what}`);

export interface RawObject {
  num: number;
  gen: number;
  value: PdfValue;
  /** Absolute offset of stream data when the object is a stream. */
  streamStart: number | null;
}

export class PdfFile {
  private blocks = new Map<number, Promise<Uint8Array>>();

  constructor(readonly reader: RangeReader) {}

  get size(): number {
    return this.reader.size;
  }

  /** Up to `length` bytes from `offset` (fewer at the end of the file). */
  async bytes(offset: number, length: number): Promise<Uint8Array> {
    const end = Math.min(this.size, offset + length);
    if (offset < 0 || offset >= end) return new Uint8Array(0);
    const first = Math.floor(offset / BLOCK);
    const last = Math.floor((end - 1) / BLOCK);
    if (this.blocks.size + (last - first + 1) > MAX_BLOCKS) this.blocks.clear();
    for (let block = first; block <= last; ) {
      if (this.blocks.has(block)) {
        block++;
        continue;
      }
      let runEnd = block;
      while (runEnd + 1 <= last && !this.blocks.has(runEnd + 1)) runEnd++;
      const runStart = block;
      const start = runStart * BLOCK;
      const run = this.reader.read(start, Math.min(this.size, (runEnd + 1) * BLOCK) - start);
      for (let b = runStart; b <= runEnd; b++) {
        this.blocks.set(
          b,
          run.then((bytes) => bytes.subarray((b - runStart) * BLOCK, (b - runStart + 1) * BLOCK)),
        );
      }
      block = runEnd + 1;
    }
    const parts: Uint8Array[] = [];
    for (let block = first; block <= last; block++) parts.push(await this.blocks.get(block)!);
    const out = new Uint8Array(end - offset);
    let at = 0;
    for (const [i, part] of parts.entries()) {
      const from = i === 0 ? offset - first * BLOCK : 0;
      const slice = part.subarray(from, Math.min(part.length, from + (out.length - at)));
      out.set(slice, at);
      at += slice.length;
    }
    return out;
  }

  /** Runs `parse` on a window at `offset`, doubling the window while the parser needs more bytes. */
  async parseAt<T>(offset: number, parse: (lexer: Lexer) => T, initial = 1024): Promise<T> {
    for (let window = initial; ; window *= 2) {
      const bytes = await this.bytes(offset, window);
      const atEnd = offset + bytes.length >= this.size;
      try {
        return parse(new Lexer(bytes, 0, atEnd));
      } catch (error) {
        if (!(error instanceof NeedMoreBytes)) throw error;
        if (atEnd || window >= MAX_OBJECT_WINDOW) throw damaged('an object is larger than the file allows');
      }
    }
  }

  /** The indirect object `num gen obj … endobj|stream` at `offset`. */
  readObjectAt(offset: number): Promise<RawObject> {
    return this.parseAt(offset, (lexer) => {
      const num = lexer.next();
      const gen = lexer.next();
      const keyword = lexer.next();
      if (
        typeof num !== 'number' ||
        typeof gen !== 'number' ||
        !(keyword instanceof Keyword) ||
        keyword.word !== 'obj'
      ) {
        throw damaged(`no object at offset ${offset}`);
      }
      const value = lexer.next();
      lexer.skipWhitespace();
      let streamStart: number | null = null;
      if (isDict(value)) {
        // `stream` must be seen whole before deciding this is a plain dictionary.
        if (lexer.bytes.length - lexer.pos < 8 && !lexer.atEnd) throw new NeedMoreBytes();
        const save = lexer.pos;
        const word = lexer.pos < lexer.bytes.length ? lexer.next() : null;
        if (word instanceof Keyword && word.word === 'stream') streamStart = offset + lexer.streamDataStart();
        else lexer.pos = save;
      }
      return { num, gen, value, streamStart };
    });
  }
}

export function dictValue(value: PdfValue | undefined): PdfDict | null {
  return isDict(value) ? value : null;
}
