/**
 * PDF object syntax (ISO 32000 §7.3) over bytes: numbers, names, strings, arrays, dictionaries,
 * references and operators. The lexer works on a window of the file and throws `NeedMoreBytes` when
 * an object runs past the window, so callers can fetch a larger range and parse again.
 */
export class Name {
  constructor(readonly name: string) {}
}
export class Ref {
  constructor(
    readonly num: number,
    readonly gen: number,
  ) {}
}
/** A bare keyword: `obj`, `stream`, `R`… in files; operators (`cm`, `Do`) in content streams. */
export class Keyword {
  constructor(readonly word: string) {}
}

export type PdfDict = Map<string, PdfValue>;
export type PdfValue = number | boolean | null | Name | Ref | Uint8Array | PdfValue[] | PdfDict | Keyword;

export class NeedMoreBytes extends Error {}

/** Nesting deeper than this is a hostile or broken file, not a real document. */
const MAX_DEPTH = 100;

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);
const isRegular = (c: number) => !WHITESPACE.has(c) && !DELIMITERS.has(c);
const hexValue = (c: number) =>
  c >= 0x30 && c <= 0x39 ? c - 0x30 : c >= 0x41 && c <= 0x46 ? c - 55 : c >= 0x61 && c <= 0x66 ? c - 87 : -1;

export const isDict = (value: unknown): value is PdfDict => value instanceof Map;
export const isName = (value: unknown, name?: string): value is Name =>
  value instanceof Name && (name === undefined || value.name === name);
export const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

export class Lexer {
  /** `atEnd`: the window ends at the end of the file, so running out is corruption, not a short read. */
  constructor(
    readonly bytes: Uint8Array,
    public pos = 0,
    readonly atEnd = false,
  ) {}

  private more(): never {
    if (this.atEnd) throw new SyntaxError('unexpected end of file');
    throw new NeedMoreBytes();
  }

  skipWhitespace(): void {
    const b = this.bytes;
    while (this.pos < b.length) {
      const c = b[this.pos]!;
      if (WHITESPACE.has(c)) this.pos++;
      else if (c === 0x25) {
        while (this.pos < b.length && b[this.pos] !== 0x0a && b[this.pos] !== 0x0d) this.pos++;
      } else return;
    }
  }

  /** Next object; integers followed by `gen R` become references. */
  next(depth = 0): PdfValue {
    if (depth > MAX_DEPTH) throw new SyntaxError('objects nested too deeply');
    this.skipWhitespace();
    const b = this.bytes;
    if (this.pos >= b.length) this.more();
    const c = b[this.pos]!;
    if (c === 0x2f) return this.name();
    if (c === 0x28) return this.literalString();
    if (c === 0x5b) {
      this.pos++;
      const items: PdfValue[] = [];
      while (true) {
        this.skipWhitespace();
        if (this.pos >= b.length) this.more();
        if (b[this.pos] === 0x5d) {
          this.pos++;
          return items;
        }
        items.push(this.next(depth + 1));
      }
    }
    if (c === 0x3c) {
      if (this.pos + 1 >= b.length) this.more();
      if (b[this.pos + 1] === 0x3c) return this.dict(depth);
      return this.hexString();
    }
    if (c === 0x2b || c === 0x2d || c === 0x2e || (c >= 0x30 && c <= 0x39)) return this.numberOrRef();
    if (c === 0x29 || c === 0x3e || c === 0x5d || c === 0x7b || c === 0x7d) {
      this.pos++;
      return new Keyword(String.fromCharCode(c));
    }
    return this.keyword();
  }

  private dict(depth: number): PdfDict {
    const b = this.bytes;
    this.pos += 2;
    const dict: PdfDict = new Map();
    while (true) {
      this.skipWhitespace();
      if (this.pos + 1 >= b.length) this.more();
      if (b[this.pos] === 0x3e && b[this.pos + 1] === 0x3e) {
        this.pos += 2;
        return dict;
      }
      const key = this.next(depth + 1);
      if (!(key instanceof Name)) throw new SyntaxError('dictionary key is not a name');
      dict.set(key.name, this.next(depth + 1));
    }
  }

  private name(): Name {
    const b = this.bytes;
    this.pos++;
    let text = '';
    while (true) {
      if (this.pos >= b.length) {
        if (this.atEnd) break;
        this.more();
      }
      const c = b[this.pos]!;
      if (!isRegular(c)) break;
      if (c === 0x23 && this.pos + 2 < b.length && hexValue(b[this.pos + 1]!) >= 0 && hexValue(b[this.pos + 2]!) >= 0) {
        text += String.fromCharCode(hexValue(b[this.pos + 1]!) * 16 + hexValue(b[this.pos + 2]!));
        this.pos += 3;
      } else {
        text += String.fromCharCode(c);
        this.pos++;
      }
    }
    return new Name(text);
  }

  private readNumber(): number {
    const b = this.bytes;
    const start = this.pos;
    while (true) {
      if (this.pos >= b.length) {
        if (this.atEnd) break;
        this.more();
      }
      const c = b[this.pos]!;
      if (!(c === 0x2b || c === 0x2d || c === 0x2e || (c >= 0x30 && c <= 0x39))) break;
      this.pos++;
    }
    const value = Number(String.fromCharCode(...b.subarray(start, this.pos)));
    return Number.isFinite(value) ? value : 0;
  }

  /** True when the window ran out: at the end of the file that just ends the lookahead. */
  private exhausted(): boolean {
    if (this.pos < this.bytes.length) return false;
    if (this.atEnd) return true;
    this.more();
  }

  private numberOrRef(): number | Ref {
    const value = this.readNumber();
    if (!Number.isInteger(value) || value < 0) return value;
    // Look ahead for `gen R`; put everything back when it is not there.
    const save = this.pos;
    this.skipWhitespace();
    if (!this.exhausted()) {
      const c = this.bytes[this.pos]!;
      if (c >= 0x30 && c <= 0x39) {
        const gen = this.readNumber();
        this.skipWhitespace();
        if (!this.exhausted() && this.bytes[this.pos] === 0x52) {
          const after = this.bytes[this.pos + 1];
          if (after === undefined && !this.atEnd) this.more();
          if (after === undefined || !isRegular(after)) {
            this.pos++;
            return new Ref(value, gen);
          }
        }
      }
    }
    this.pos = save;
    return value;
  }

  private keyword(): PdfValue {
    const b = this.bytes;
    const start = this.pos;
    while (this.pos < b.length && isRegular(b[this.pos]!)) this.pos++;
    if (this.pos === start) {
      this.pos++;
      return new Keyword(String.fromCharCode(b[start]!));
    }
    const word = String.fromCharCode(...b.subarray(start, this.pos));
    if (word === 'true') return true;
    if (word === 'false') return false;
    if (word === 'null') return null;
    return new Keyword(word);
  }

  private literalString(): Uint8Array {
    const b = this.bytes;
    this.pos++;
    const out: number[] = [];
    let depth = 1;
    while (true) {
      if (this.pos >= b.length) this.more();
      const c = b[this.pos++]!;
      if (c === 0x28) depth++;
      else if (c === 0x29 && --depth === 0) return Uint8Array.from(out);
      if (c !== 0x5c) {
        out.push(c);
        continue;
      }
      if (this.pos >= b.length) this.more();
      const e = b[this.pos++]!;
      const simple: Record<number, number> = { 110: 0x0a, 114: 0x0d, 116: 0x09, 98: 0x08, 102: 0x0c };
      if (simple[e] !== undefined) out.push(simple[e]);
      else if (e >= 0x30 && e <= 0x37) {
        let code = e - 0x30;
        for (let i = 0; i < 2 && this.pos < b.length && b[this.pos]! >= 0x30 && b[this.pos]! <= 0x37; i++) {
          code = code * 8 + (b[this.pos++]! - 0x30);
        }
        out.push(code & 0xff);
      } else if (e === 0x0d) {
        if (b[this.pos] === 0x0a) this.pos++;
      } else if (e !== 0x0a) out.push(e);
    }
  }

  private hexString(): Uint8Array {
    const b = this.bytes;
    this.pos++;
    const digits: number[] = [];
    while (true) {
      if (this.pos >= b.length) this.more();
      const c = b[this.pos++]!;
      if (c === 0x3e) break;
      const v = hexValue(c);
      if (v >= 0) digits.push(v);
    }
    if (digits.length % 2) digits.push(0);
    const out = new Uint8Array(digits.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = digits[2 * i]! * 16 + digits[2 * i + 1]!;
    return out;
  }

  /** After the `stream` keyword: the data starts after one EOL (CRLF or LF; a lone CR is tolerated). */
  streamDataStart(): number {
    const b = this.bytes;
    if (this.pos >= b.length) this.more();
    if (b[this.pos] === 0x0d) this.pos++;
    if (this.pos >= b.length) this.more();
    if (b[this.pos] === 0x0a) this.pos++;
    return this.pos;
  }
}
