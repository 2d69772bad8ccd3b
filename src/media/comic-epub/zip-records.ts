/**
 * The records of the ZIP an EPUB is (APPNOTE 6.3: local file header, central directory header, end of central
 * directory), written for entries whose method, CRC-32 and sizes are known before any of their bytes are: a
 * comic page copied from its archive keeps the archive's own values, so the whole file's layout, and its
 * length, are fixed before the first byte is sent. No data descriptors, no extra fields (EPUB's OCF forbids
 * one on `mimetype`), ASCII names only (the EPUB's own file names), and no ZIP64: a comic EPUB is refused
 * beyond the classic limits rather than written in a form e-readers read inconsistently.
 */

export const STORED = 0;
export const DEFLATED = 8;

/** What the records say about one entry. */
export interface ZipRecordEntry {
  /** ASCII path inside the ZIP. */
  name: string;
  method: typeof STORED | typeof DEFLATED;
  crc32: number;
  compressedSize: number;
  size: number;
}

export const LOCAL_HEADER_SIZE = 30;
export const CENTRAL_HEADER_SIZE = 46;
export const END_RECORD_SIZE = 22;
/** The classic format's limits: 4 GiB offsets and sizes, 65,535 entries. */
export const MAX_CLASSIC_OFFSET = 0xffffffff;
export const MAX_CLASSIC_ENTRIES = 0xffff;

const VERSION_NEEDED = { [STORED]: 10, [DEFLATED]: 20 } as const;

/** The DOS date and time ZIP records carry (local time in the format; UTC here, two-second steps). */
export function dosDateTime(at: Date): { time: number; date: number } {
  const year = Math.min(Math.max(at.getUTCFullYear(), 1980), 2107);
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    date: ((year - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

const ascii = (name: string) => {
  const bytes = new Uint8Array(name.length);
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code > 0x7e || code < 0x20) throw new Error(`a ZIP entry name must be printable ASCII: ${name}`);
    bytes[i] = code;
  }
  return bytes;
};

export const localHeaderLength = (entry: Pick<ZipRecordEntry, 'name'>) => LOCAL_HEADER_SIZE + entry.name.length;
export const centralHeaderLength = (entry: Pick<ZipRecordEntry, 'name'>) => CENTRAL_HEADER_SIZE + entry.name.length;

export function localHeader(entry: ZipRecordEntry, stamp: { time: number; date: number }): Uint8Array {
  const name = ascii(entry.name);
  const out = new Uint8Array(LOCAL_HEADER_SIZE + name.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, 0x04034b50, true);
  v.setUint16(4, VERSION_NEEDED[entry.method], true);
  v.setUint16(6, 0, true);
  v.setUint16(8, entry.method, true);
  v.setUint16(10, stamp.time, true);
  v.setUint16(12, stamp.date, true);
  v.setUint32(14, entry.crc32 >>> 0, true);
  v.setUint32(18, entry.compressedSize, true);
  v.setUint32(22, entry.size, true);
  v.setUint16(26, name.length, true);
  v.setUint16(28, 0, true);
  out.set(name, LOCAL_HEADER_SIZE);
  return out;
}

/** The central directory: one header per entry, at the offsets their local headers were written at. */
export function centralDirectory(
  entries: ReadonlyArray<ZipRecordEntry & { offset: number }>,
  stamp: { time: number; date: number },
): Uint8Array {
  const out = new Uint8Array(entries.reduce((n, entry) => n + centralHeaderLength(entry), 0));
  const v = new DataView(out.buffer);
  let at = 0;
  for (const entry of entries) {
    const name = ascii(entry.name);
    v.setUint32(at, 0x02014b50, true);
    // Made by: MS-DOS attributes, specification 2.0.
    v.setUint16(at + 4, 20, true);
    v.setUint16(at + 6, VERSION_NEEDED[entry.method], true);
    v.setUint16(at + 8, 0, true);
    v.setUint16(at + 10, entry.method, true);
    v.setUint16(at + 12, stamp.time, true);
    v.setUint16(at + 14, stamp.date, true);
    v.setUint32(at + 16, entry.crc32 >>> 0, true);
    v.setUint32(at + 20, entry.compressedSize, true);
    v.setUint32(at + 24, entry.size, true);
    v.setUint16(at + 28, name.length, true);
    // Extra field, comment, disk number, internal and external attributes: none.
    v.setUint32(at + 42, entry.offset, true);
    out.set(name, at + CENTRAL_HEADER_SIZE);
    at += CENTRAL_HEADER_SIZE + name.length;
  }
  return out;
}

export function endOfCentralDirectory(count: number, directorySize: number, directoryOffset: number): Uint8Array {
  const out = new Uint8Array(END_RECORD_SIZE);
  const v = new DataView(out.buffer);
  v.setUint32(0, 0x06054b50, true);
  v.setUint16(8, count, true);
  v.setUint16(10, count, true);
  v.setUint32(12, directorySize, true);
  v.setUint32(16, directoryOffset, true);
  return out;
}
