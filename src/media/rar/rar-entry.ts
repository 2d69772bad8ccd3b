/**
 * The header index of a RAR archive, built once at analysis time from RAR4 or RAR5 headers. It holds
 * everything serving or decompressing an entry needs, so a page costs no further header reads.
 */
export type RarFormat = 4 | 5;

export interface RarEntry {
  /** Path inside the archive with `/` separators. */
  name: string;
  /** Offset of the entry's file header block (where its header CRC starts). */
  headerOffset: number;
  /** Offset of the first packed data byte. */
  dataOffset: number;
  packedSize: number;
  unpackedSize: number;
  /** CRC-32 of the unpacked data; null when the archive records only a BLAKE2 hash (RAR5 -htb). */
  crc32: number | null;
  /** 0 = stored; 1…5 = fastest…best (RAR4 METHOD − 0x30, RAR5 method bits). */
  method: number;
  /** RAR4: UNP_VER (15, 20, 26, 29, 36); RAR5: compression algorithm version (0 = RAR 5.0). */
  unpackVersion: number;
  /** Dictionary the entry was packed with, in bytes (0 for directories). */
  dictionarySize: number;
  /** Decompressing needs the state left by the entries before it (solid archive). */
  solid: boolean;
  directory: boolean;
  encrypted: boolean;
  /** Part of the entry lives in another volume. */
  split: boolean;
  /** RAR5 link or file-copy record: the entry has no data of its own. */
  redirect: boolean;
  /** RAR4 HOST_OS / RAR5 host OS, kept so a re-synthesized header reads attributes the same way. */
  hostOs: number;
}

export interface RarArchiveIndex {
  format: RarFormat;
  /** Offset of the RAR signature (non-zero after a self-extractor stub). */
  signatureOffset: number;
  /** Main header says solid. */
  solid: boolean;
  entries: RarEntry[];
  /** How the listing was obtained, for diagnostics and tests. */
  source: 'quick-open' | 'header-walk';
}
