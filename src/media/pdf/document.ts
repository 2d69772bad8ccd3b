/**
 * Indirect objects of a PDF by reference: from their file offset, or from inside an object stream
 * (decoded once and cached). Only small structural objects are ever parsed; stream data is located,
 * not read, unless the caller asks for it.
 */
import { BookAnalysisError } from '../errors';
import type { RangeReader } from '../range-reader';
import { decodeStream } from './filters';
import { isDict, isName, isNumber, Lexer, type PdfDict, type PdfValue, Ref } from './objects';
import { damaged, PdfFile, type RawObject } from './pdf-file';
import { rebuildCrossReference } from './repair';
import { type CrossReference, readCrossReference } from './xref';

/** Decoded object streams are a few hundred KiB; this bounds a hostile one. */
const MAX_OBJECT_STREAM = 32 * 1024 * 1024;
const MAX_REF_HOPS = 32;

interface ObjectStream {
  data: Uint8Array;
  first: number;
  offsets: number[];
}

export interface StreamLocation {
  dict: PdfDict;
  start: number;
  length: number;
}

/**
 * Whether an error means the cross-reference data may be wrong, so rebuilding it could help
 * (as opposed to a missing file, an encrypted or an oversized document).
 */
export function isRepairable(error: unknown): boolean {
  return !(error instanceof BookAnalysisError && ['file_missing', 'encrypted', 'too_large'].includes(error.code));
}

export class PdfDocument {
  private objects = new Map<number, Promise<RawObject | null>>();
  private objectStreams = new Map<number, Promise<ObjectStream>>();
  /** Set when an object was not where the cross-reference data said: the caller should repair. */
  sawDamage = false;

  private constructor(
    readonly file: PdfFile,
    private readonly xref: CrossReference,
    /** The cross-reference data was rebuilt from the objects in the file (repair.ts). */
    readonly repaired: boolean,
  ) {}

  /** Opens through the file's cross-reference data, rebuilding it when it cannot be read at all. */
  static async open(reader: RangeReader): Promise<PdfDocument> {
    const file = new PdfFile(reader);
    const xref = await readCrossReference(file).catch((error: unknown) => {
      if (!isRepairable(error)) throw error;
      return null;
    });
    return xref ? PdfDocument.checked(new PdfDocument(file, xref, false)) : PdfDocument.rebuilt(file);
  }

  /** Opens with cross-reference data rebuilt by scanning the file for objects. */
  static repair(reader: RangeReader): Promise<PdfDocument> {
    return PdfDocument.rebuilt(new PdfFile(reader));
  }

  private static async rebuilt(file: PdfFile): Promise<PdfDocument> {
    const xref = await rebuildCrossReference(file, async (candidate, num) => {
      const catalog = await new PdfDocument(file, candidate, true).dict(new Ref(num, 0)).catch(() => null);
      return isName(catalog?.get('Type'), 'Catalog') && catalog.has('Pages');
    });
    return PdfDocument.checked(new PdfDocument(file, xref, true));
  }

  private static checked(doc: PdfDocument): PdfDocument {
    if (doc.trailer.has('Encrypt')) {
      throw new BookAnalysisError('encrypted', 'The PDF is encrypted; Longbox cannot read password-protected files');
    }
    return doc;
  }

  get trailer(): PdfDict {
    return this.xref.trailer;
  }

  object(ref: Ref): Promise<RawObject | null> {
    let pending = this.objects.get(ref.num);
    if (!pending) {
      pending = this.load(ref.num);
      this.objects.set(ref.num, pending);
    }
    return pending;
  }

  private async load(num: number): Promise<RawObject | null> {
    const entry = this.xref.entries.get(num);
    if (!entry) return null; // a reference to a missing object is the null object (ISO 32000 §7.3.10)
    if (entry.type === 1) {
      const object = await this.file.readObjectAt(entry.offset).catch((error: unknown) => {
        this.sawDamage = true;
        throw error;
      });
      if (object.num !== num) {
        this.sawDamage = true;
        throw damaged(`object ${num} is not where the cross-reference table says`);
      }
      return object;
    }
    const stream = await this.objectStream(entry.stream);
    const offset = stream.offsets[entry.index];
    if (offset === undefined) throw damaged(`object ${num} is missing from its object stream`);
    const value = new Lexer(stream.data, stream.first + offset, true).next();
    return { num, gen: 0, value, streamStart: null };
  }

  private objectStream(num: number): Promise<ObjectStream> {
    let pending = this.objectStreams.get(num);
    if (!pending) {
      pending = (async () => {
        const data = await this.streamData(new Ref(num, 0), MAX_OBJECT_STREAM);
        const location = await this.stream(new Ref(num, 0));
        const count = location?.dict.get('N');
        const first = location?.dict.get('First');
        if (!isNumber(count) || !isNumber(first)) throw damaged(`object stream ${num} is malformed`);
        const header = new Lexer(data.subarray(0, first), 0, true);
        const offsets: number[] = [];
        for (let i = 0; i < count; i++) {
          header.next();
          const offset = header.next();
          offsets.push(isNumber(offset) ? offset : -1);
        }
        return { data, first, offsets };
      })();
      this.objectStreams.set(num, pending);
    }
    return pending;
  }

  /** The value behind any chain of references (undefined stays undefined). */
  async resolve(value: PdfValue | undefined): Promise<PdfValue | undefined> {
    for (let hops = 0; value instanceof Ref; hops++) {
      if (hops >= MAX_REF_HOPS) throw damaged('references loop');
      value = (await this.object(value))?.value ?? null;
    }
    return value;
  }

  async dict(value: PdfValue | undefined): Promise<PdfDict | null> {
    const resolved = await this.resolve(value);
    return isDict(resolved) ? resolved : null;
  }

  /** Where a stream object's data is, with /Length resolved. */
  async stream(ref: PdfValue | undefined): Promise<StreamLocation | null> {
    if (!(ref instanceof Ref)) return null;
    const object = await this.object(ref);
    if (!object || object.streamStart === null || !isDict(object.value)) return null;
    const length = await this.resolve(object.value.get('Length'));
    if (!isNumber(length) || length < 0 || object.streamStart + length > this.file.size) {
      throw damaged(`stream ${ref.num} has no valid length`);
    }
    return { dict: object.value, start: object.streamStart, length };
  }

  /** A stream's decoded data (Flate only; see filters.ts). */
  async streamData(ref: PdfValue | undefined, maxSize: number): Promise<Uint8Array> {
    const location = await this.stream(ref);
    if (!location) throw damaged('a stream is missing');
    if (location.length > maxSize) throw damaged('a stream is larger than expected');
    const raw = await this.file.bytes(location.start, location.length);
    return decodeStream(location.dict, raw, maxSize);
  }
}
