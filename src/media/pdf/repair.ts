/**
 * Rebuilding the cross-reference data of a damaged PDF (DECISIONS.md §Books), as pdf.js, PDFBox and
 * MuPDF do: the file is read front to back in range reads, every `N G obj` header is an object at that
 * offset (a later definition wins, as in an incremental update), objects inside object streams are
 * mapped from their headers, and the trailer comes from the last `trailer` dictionary or xref-stream
 * dictionary that names a /Root, else from the last object that is a /Catalog.
 *
 * Bounded: files above MAX_REPAIR_SIZE are not scanned (the reads alone would cost seconds per book),
 * and the object count is capped like a cross-reference table's.
 */
import { BookAnalysisError } from '../errors';
import { decodeStream } from './filters';
import { isDict, isNumber, Lexer, type PdfDict, Ref } from './objects';
import { damaged, type PdfFile } from './pdf-file';
import type { CrossReference, XrefEntry } from './xref';

/** Larger damaged files are reported, not scanned. */
export const MAX_REPAIR_SIZE = 512 * 1024 * 1024;
const CHUNK = 1024 * 1024;
/** Bytes read beyond each chunk so a header split across two chunks is still seen whole. */
const OVERLAP = 64;
const MAX_OBJECTS = 4_000_000;
const MAX_OBJECT_STREAMS = 10_000;
const MAX_OBJECT_STREAM = 32 * 1024 * 1024;
/** How far after a header the object's /Type is looked for while scanning. */
const TYPE_WINDOW = 512;

/** `12 0 obj` preceded by a delimiter or the start of the chunk; group 1 is what precedes the number. */
const OBJECT_HEADER = /(^|[\s>\])])(\d{1,10})[\0\t\n\f\r ]+(\d{1,5})[\0\t\n\f\r ]+obj(?![A-Za-z0-9_])/g;
const TRAILER = /trailer[\0\t\n\f\r ]*<</g;
const TYPE_OF = /\/Type[\0\t\n\f\r ]*\/(Catalog|ObjStm|XRef)(?![A-Za-z0-9_])/;

interface ScanResult {
  entries: Map<number, XrefEntry>;
  /** Offsets of `trailer` dictionaries (just after the keyword), in file order. */
  trailers: number[];
  catalogs: number[];
  objectStreams: number[];
  xrefStreams: number[];
}

async function scanFile(file: PdfFile): Promise<ScanResult> {
  const result: ScanResult = { entries: new Map(), trailers: [], catalogs: [], objectStreams: [], xrefStreams: [] };
  const decoder = new TextDecoder('latin1');
  for (let start = 0; start < file.size; start += CHUNK) {
    const length = Math.min(CHUNK + OVERLAP, file.size - start);
    // Straight from the reader: the scan must not evict the block cache the structure reads use.
    const text = decoder.decode(await file.reader.read(start, length));
    OBJECT_HEADER.lastIndex = 0;
    for (let match = OBJECT_HEADER.exec(text); match; match = OBJECT_HEADER.exec(text)) {
      const at = match.index + (match[1] as string).length;
      if (at >= CHUNK) break; // the next chunk sees it
      const num = Number(match[2]);
      if (num <= 0) continue;
      if (!result.entries.has(num) && result.entries.size >= MAX_OBJECTS) throw damaged('it has too many objects');
      result.entries.set(num, { type: 1, offset: start + at });
      const kind = TYPE_OF.exec(text.slice(OBJECT_HEADER.lastIndex, OBJECT_HEADER.lastIndex + TYPE_WINDOW))?.[1];
      if (kind === 'Catalog') result.catalogs.push(num);
      else if (kind === 'ObjStm' && result.objectStreams.length < MAX_OBJECT_STREAMS) result.objectStreams.push(num);
      else if (kind === 'XRef') result.xrefStreams.push(start + at);
    }
    TRAILER.lastIndex = 0;
    for (let match = TRAILER.exec(text); match; match = TRAILER.exec(text)) {
      if (match.index >= CHUNK) break;
      result.trailers.push(start + match.index + 'trailer'.length);
    }
  }
  return result;
}

/** Objects of one object stream as `{type: 2}` entries; a stream that does not decode adds nothing. */
async function objectStreamEntries(
  file: PdfFile,
  entries: Map<number, XrefEntry>,
  num: number,
): Promise<Array<[number, XrefEntry]>> {
  const entry = entries.get(num);
  if (entry?.type !== 1) return [];
  try {
    const object = await file.readObjectAt(entry.offset);
    if (!isDict(object.value) || object.streamStart === null) return [];
    let length = object.value.get('Length');
    if (length instanceof Ref) {
      const target = entries.get(length.num);
      length = target?.type === 1 ? (await file.readObjectAt(target.offset)).value : undefined;
    }
    const count = object.value.get('N');
    const first = object.value.get('First');
    if (!isNumber(length) || !isNumber(count) || !isNumber(first) || length > MAX_OBJECT_STREAM) return [];
    const data = await decodeStream(object.value, await file.bytes(object.streamStart, length), MAX_OBJECT_STREAM);
    const header = new Lexer(data.subarray(0, first), 0, true);
    const found: Array<[number, XrefEntry]> = [];
    for (let i = 0; i < Math.min(count, MAX_OBJECTS); i++) {
      const objectNum = header.next();
      header.next(); // offset: the document reads it again when it loads the object
      if (isNumber(objectNum) && objectNum > 0) found.push([objectNum, { type: 2, stream: num, index: i }]);
    }
    return found;
  } catch {
    return [];
  }
}

async function dictAt(file: PdfFile, offset: number): Promise<PdfDict | null> {
  try {
    const value = await file.parseAt(offset, (lexer) => lexer.next());
    return isDict(value) ? value : null;
  } catch {
    return null;
  }
}

async function objectDictAt(file: PdfFile, offset: number): Promise<PdfDict | null> {
  try {
    const object = await file.readObjectAt(offset);
    return isDict(object.value) ? object.value : null;
  } catch {
    return null;
  }
}

/**
 * The trailer: the newest trailer-like dictionary (classic trailer or xref stream) whose /Root is an
 * object the scan found; else a /Catalog object found by the scan, or one inside an object stream.
 */
async function rebuildTrailer(
  file: PdfFile,
  scan: ScanResult,
  isCatalog: (num: number) => Promise<boolean>,
): Promise<PdfDict> {
  const candidates = [
    ...scan.trailers.map((at) => dictAt(file, at)),
    ...scan.xrefStreams.map((at) => objectDictAt(file, at)),
  ];
  const dicts = (await Promise.all(candidates)).filter((d): d is PdfDict => d !== null);
  const offsets = [...scan.trailers, ...scan.xrefStreams];
  const order = dicts.map((_, i) => i).sort((a, b) => (offsets[b] as number) - (offsets[a] as number));
  for (const i of order) {
    const dict = dicts[i] as PdfDict;
    const root = dict.get('Root');
    if (root instanceof Ref && scan.entries.has(root.num) && (await isCatalog(root.num))) {
      const trailer: PdfDict = new Map([['Root', root]]);
      // Info and Encrypt from the newest dictionary that has them.
      for (const key of ['Info', 'Encrypt', 'ID']) {
        const from = order.map((j) => dicts[j]?.get(key)).find((value) => value !== undefined);
        if (from !== undefined) trailer.set(key, from);
      }
      return trailer;
    }
  }
  for (const num of [...scan.catalogs].reverse()) {
    if (await isCatalog(num)) return new Map([['Root', new Ref(num, 0)]]);
  }
  for (const [num, entry] of [...scan.entries].reverse()) {
    if (entry.type === 2 && (await isCatalog(num))) return new Map([['Root', new Ref(num, 0)]]);
  }
  throw new BookAnalysisError('corrupt', 'The PDF is damaged: no readable page tree was found (is it truncated?)');
}

/**
 * A cross-reference rebuilt from the objects in the file. `isCatalog` resolves an object through the
 * rebuilt map (the document supplies it, since objects may live in object streams).
 */
export async function rebuildCrossReference(
  file: PdfFile,
  isCatalog: (xref: CrossReference, num: number) => Promise<boolean>,
): Promise<CrossReference> {
  if (file.size > MAX_REPAIR_SIZE) {
    throw new BookAnalysisError(
      'corrupt',
      `The PDF is damaged (its cross-reference table is wrong) and larger than ${MAX_REPAIR_SIZE / 1024 / 1024} MiB, too large to repair; re-save it with a PDF tool`,
    );
  }
  const scan = await scanFile(file);
  const entries = new Map(scan.entries);
  for (const num of scan.objectStreams) {
    // An object written as a plain object is newer than the same number inside a stream.
    for (const [objectNum, entry] of await objectStreamEntries(file, scan.entries, num)) {
      if (!entries.has(objectNum) && entries.size < MAX_OBJECTS) entries.set(objectNum, entry);
    }
  }
  const xref: CrossReference = { entries, trailer: new Map() };
  xref.trailer = await rebuildTrailer(file, { ...scan, entries }, (num) => isCatalog(xref, num));
  return xref;
}
