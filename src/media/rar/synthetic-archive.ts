/**
 * Headers for the small archive unrar is given instead of the book: signature, a minimal main header,
 * one re-synthesized file header per entry (followed by that entry's original packed data) and an end
 * header, all with correct CRCs. Headers are rebuilt from the index, so no header is re-read from R2;
 * names are replaced by neutral ones because unrar only needs them to call its output callback.
 */
import { crc32 } from '../crc32';
import type { RarEntry, RarFormat } from './rar-entry';

/** What decompressing one entry needs: the fields of its original file header that drive unpacking. */
export type PackedEntry = Pick<
  RarEntry,
  | 'dataOffset'
  | 'packedSize'
  | 'unpackedSize'
  | 'crc32'
  | 'method'
  | 'unpackVersion'
  | 'dictionarySize'
  | 'solid'
  | 'hostOs'
>;

class Bytes {
  private readonly out: number[] = [];
  u8(value: number) {
    this.out.push(value & 0xff);
    return this;
  }
  u16(value: number) {
    return this.u8(value).u8(value >>> 8);
  }
  u32(value: number) {
    return this.u16(value & 0xffff).u16(value >>> 16);
  }
  vint(value: number) {
    let rest = value;
    while (rest >= 0x80) {
      this.u8((rest % 0x80) | 0x80);
      rest = Math.floor(rest / 0x80);
    }
    return this.u8(rest);
  }
  bytes(values: ArrayLike<number>) {
    for (let i = 0; i < values.length; i++) this.out.push(values[i]!);
    return this;
  }
  get length() {
    return this.out.length;
  }
  done(): Uint8Array {
    return Uint8Array.from(this.out);
  }
}

const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const RAR4_SIGNATURE = ascii('Rar!\x1a\x07\x00');
const RAR5_SIGNATURE = ascii('Rar!\x1a\x07\x01\x00');
const ATTRIBUTES = { windows: 0x20, unix: 0o100644 };

/** RAR5 block: CRC32 over (vint size + fields). */
function rar5Block(fields: Uint8Array): Uint8Array {
  const sized = new Bytes().vint(fields.length).bytes(fields).done();
  return new Bytes().u32(crc32(sized)).bytes(sized).done();
}

/** RAR4 block: CRC16 (low half of CRC32) over everything after it; size field patched in. */
function rar4Block(type: number, flags: number, fields: Uint8Array): Uint8Array {
  const body = new Bytes()
    .u8(type)
    .u16(flags)
    .u16(7 + fields.length)
    .bytes(fields)
    .done();
  return new Bytes()
    .u16(crc32(body) & 0xffff)
    .bytes(body)
    .done();
}

const log2 = (value: number) => Math.round(Math.log2(value));

function rar5FileHeader(entry: PackedEntry, name: Uint8Array): Uint8Array {
  const windows = entry.hostOs === 0;
  const compression =
    entry.unpackVersion |
    (entry.solid ? 0x40 : 0) |
    (entry.method << 7) |
    (Math.max(0, log2(entry.dictionarySize / 0x20000)) << 10);
  const fields = new Bytes()
    .vint(2) // file header
    .vint(0x0002) // data area present
    .vint(entry.packedSize)
    .vint(entry.crc32 === null ? 0 : 0x0004)
    .vint(entry.unpackedSize)
    .vint(windows ? ATTRIBUTES.windows : ATTRIBUTES.unix);
  if (entry.crc32 !== null) fields.u32(entry.crc32);
  fields.vint(compression).vint(entry.hostOs).vint(name.length).bytes(name);
  return rar5Block(fields.done());
}

function rar4FileHeader(entry: PackedEntry, name: Uint8Array): Uint8Array {
  const large = entry.packedSize > 0xffffffff || entry.unpackedSize > 0xffffffff;
  const flags =
    0x8000 |
    (entry.solid ? 0x0010 : 0) |
    (Math.max(0, log2(entry.dictionarySize / 0x10000)) << 5) |
    (large ? 0x100 : 0);
  const fields = new Bytes()
    .u32(entry.packedSize % 2 ** 32)
    .u32(entry.unpackedSize % 2 ** 32)
    .u8(entry.hostOs)
    .u32(entry.crc32 ?? 0)
    .u32(0x00210000) // DOS time 1980-01-01
    .u8(entry.unpackVersion)
    .u8(0x30 + entry.method)
    .u16(name.length)
    .u32(entry.hostOs === 3 ? ATTRIBUTES.unix : ATTRIBUTES.windows);
  if (large) fields.u32(Math.floor(entry.packedSize / 2 ** 32)).u32(Math.floor(entry.unpackedSize / 2 ** 32));
  fields.bytes(name);
  return rar4Block(0x74, flags, fields.done());
}

export interface SyntheticArchive {
  /** Signature + main header. */
  prefix: Uint8Array;
  /** One file header per entry, in order; each is followed by that entry's packed data. */
  headers: Uint8Array[];
  end: Uint8Array;
}

export function syntheticArchive(format: RarFormat, solid: boolean, entries: PackedEntry[]): SyntheticArchive {
  const names = entries.map((_, i) => ascii(`entry${i}`));
  if (format === 5) {
    const main = rar5Block(
      new Bytes()
        .vint(1)
        .vint(0)
        .vint(solid ? 0x0004 : 0)
        .done(),
    );
    return {
      prefix: new Bytes().bytes(RAR5_SIGNATURE).bytes(main).done(),
      headers: entries.map((entry, i) => rar5FileHeader(entry, names[i]!)),
      end: rar5Block(new Bytes().vint(5).vint(0).vint(0).done()),
    };
  }
  const main = rar4Block(0x73, solid ? 0x0008 : 0, new Uint8Array(6));
  return {
    prefix: new Bytes().bytes(RAR4_SIGNATURE).bytes(main).done(),
    headers: entries.map((entry, i) => rar4FileHeader(entry, names[i]!)),
    end: rar4Block(0x7b, 0x4000, new Uint8Array(0)),
  };
}
