/**
 * The cross-reference data of a PDF: `startxref` from the tail, then classic xref tables and/or xref
 * streams, following /XRefStm (hybrid files) and the /Prev chain of incremental updates. Newer
 * sections win, so entries are only added when absent.
 */
import { decodeStream } from './filters';
import { isDict, isNumber, Keyword, type PdfDict } from './objects';
import { damaged, type PdfFile } from './pdf-file';

export type XrefEntry = { type: 1; offset: number } | { type: 2; stream: number; index: number };

export interface CrossReference {
  entries: Map<number, XrefEntry>;
  trailer: PdfDict;
}

const TAIL = 2048;
/** More objects than this is not a book (memory guard for hostile /Size values). */
const MAX_OBJECTS = 4_000_000;
const MAX_SECTIONS = 256;
const encoder = new TextEncoder();

function lastIndexOf(haystack: Uint8Array, needle: string): number {
  const bytes = encoder.encode(needle);
  outer: for (let i = haystack.length - bytes.length; i >= 0; i--) {
    for (let j = 0; j < bytes.length; j++) if (haystack[i + j] !== bytes[j]) continue outer;
    return i;
  }
  return -1;
}

async function findStartXref(file: PdfFile): Promise<number> {
  const tailStart = Math.max(0, file.size - TAIL);
  const tail = await file.bytes(tailStart, file.size - tailStart);
  const at = lastIndexOf(tail, 'startxref');
  if (at < 0) throw damaged('it has no cross-reference table (is it truncated?)');
  const digits = new TextDecoder().decode(tail.subarray(at + 9, at + 40)).match(/^\s*(\d+)/);
  if (!digits) throw damaged('the cross-reference offset is missing');
  return Number(digits[1]);
}

function add(entries: Map<number, XrefEntry>, num: number, entry: XrefEntry): void {
  if (num > 0 && !entries.has(num)) entries.set(num, entry);
}

async function readTable(file: PdfFile, offset: number, entries: Map<number, XrefEntry>): Promise<PdfDict> {
  const found: Array<[number, XrefEntry]> = [];
  const trailer = await file.parseAt(
    offset,
    (lexer) => {
      found.length = 0;
      lexer.next(); // `xref`
      while (true) {
        const token = lexer.next();
        if (token instanceof Keyword && token.word === 'trailer') {
          const dict = lexer.next();
          if (!isDict(dict)) throw damaged('the trailer is not a dictionary');
          return dict;
        }
        const count = lexer.next();
        if (!isNumber(token) || !isNumber(count) || count < 0 || found.length + count > MAX_OBJECTS) {
          throw damaged('a cross-reference table is malformed');
        }
        for (let i = 0; i < count; i++) {
          const entryOffset = lexer.next();
          lexer.next(); // generation
          const kind = lexer.next();
          if (kind instanceof Keyword && kind.word === 'n' && isNumber(entryOffset) && entryOffset > 0) {
            found.push([token + i, { type: 1, offset: entryOffset }]);
          }
        }
      }
    },
    4096,
  );
  for (const [num, entry] of found) add(entries, num, entry);
  return trailer;
}

async function readXrefStream(file: PdfFile, offset: number, entries: Map<number, XrefEntry>): Promise<PdfDict> {
  const object = await file.readObjectAt(offset);
  const dict = object.value;
  const length = isDict(dict) ? dict.get('Length') : undefined;
  if (!isDict(dict) || object.streamStart === null || !isNumber(length))
    throw damaged('the cross-reference stream is malformed');
  const data = await decodeStream(dict, await file.bytes(object.streamStart, length), 64 * 1024 * 1024);
  const widths = dict.get('W');
  if (!Array.isArray(widths) || widths.length < 3 || !widths.every(isNumber))
    throw damaged('the cross-reference stream has no widths');
  const [w0, w1, w2] = widths as number[];
  const size = dict.get('Size');
  const index = dict.get('Index');
  const ranges = (Array.isArray(index) ? index : [0, isNumber(size) ? size : 0]).filter(isNumber);
  const rowLength = w0! + w1! + w2!;
  const field = (at: number, width: number) => {
    let value = 0;
    for (let i = 0; i < width; i++) value = value * 256 + data[at + i]!;
    return value;
  };
  let row = 0;
  for (let r = 0; r + 1 < ranges.length; r += 2) {
    const [start, count] = [ranges[r]!, ranges[r + 1]!];
    if (count > MAX_OBJECTS) throw damaged('the cross-reference stream is too large');
    for (let i = 0; i < count && (row + 1) * rowLength <= data.length; i++, row++) {
      const at = row * rowLength;
      const type = w0 === 0 ? 1 : field(at, w0!);
      const a = field(at + w0!, w1!);
      const b = field(at + w0! + w1!, w2!);
      if (type === 1 && a > 0) add(entries, start + i, { type: 1, offset: a });
      else if (type === 2) add(entries, start + i, { type: 2, stream: a, index: b });
    }
  }
  return dict;
}

async function startsWithXrefKeyword(file: PdfFile, offset: number): Promise<boolean> {
  const head = new TextDecoder().decode(await file.bytes(offset, 32));
  return /^\s*xref/.test(head);
}

export async function readCrossReference(file: PdfFile): Promise<CrossReference> {
  const entries = new Map<number, XrefEntry>();
  let trailer: PdfDict | null = null;
  const pending = [await findStartXref(file)];
  const seen = new Set<number>();
  while (pending.length > 0) {
    const offset = pending.shift()!;
    if (seen.has(offset) || seen.size >= MAX_SECTIONS || offset >= file.size) continue;
    seen.add(offset);
    const isTable = await startsWithXrefKeyword(file, offset);
    const section = isTable ? await readTable(file, offset, entries) : await readXrefStream(file, offset, entries);
    if (!trailer) trailer = new Map(section);
    else for (const [key, value] of section) if (!trailer.has(key)) trailer.set(key, value);
    const hybrid = section.get('XRefStm');
    const previous = section.get('Prev');
    // A hybrid file's xref stream is newer than its /Prev sections: read it first.
    if (isTable && isNumber(hybrid)) pending.unshift(hybrid);
    if (isNumber(previous)) pending.push(previous);
  }
  if (!trailer) throw damaged('it has no trailer');
  trailer.delete('Prev');
  trailer.delete('XRefStm');
  return { entries, trailer };
}
