/**
 * Where the RAR data starts. Usually at byte 0, but a self-extracting archive (an .exe stub with the
 * archive appended) puts it later, so the first megabyte is searched, as unrar does.
 */
import { BookAnalysisError } from '../errors';
import type { RarFormat } from './rar-entry';

/** Largest self-extractor stub searched for the signature. */
export const MAX_SFX_SIZE = 1024 * 1024;

/** `Rar!\x1a\x07`, shared by every RAR version from 1.5 on; the next byte says which. */
const PREFIX = [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07];

export interface SignatureMatch {
  format: RarFormat;
  offset: number;
  /** Offset of the first block after the signature. */
  headersStart: number;
}

function prefixAt(bytes: Uint8Array, at: number): boolean {
  for (let i = 0; i < PREFIX.length; i++) if (bytes[at + i] !== PREFIX[i]) return false;
  return true;
}

/** The signature at `at`, null when none, throws for a RAR version newer than 5. */
export function signatureAt(bytes: Uint8Array, at: number): SignatureMatch | null {
  if (!prefixAt(bytes, at) || at + 7 > bytes.length) return null;
  const version = bytes[at + 6]!;
  if (version === 0x00) return { format: 4, offset: at, headersStart: at + 7 };
  if (version === 0x01 && bytes[at + 7] === 0x00) return { format: 5, offset: at, headersStart: at + 8 };
  if (version > 0x01 && version < 0x10) {
    throw new BookAnalysisError(
      'unsupported_format',
      'The file is a RAR archive of a version newer than RAR 5, which Longbox cannot read; repack the book as a CBZ',
    );
  }
  return null;
}

/** Every plausible signature in `head`, in file order (the stub itself may contain the bytes). */
export function signatureCandidates(head: Uint8Array): SignatureMatch[] {
  const found: SignatureMatch[] = [];
  let at = head.indexOf(PREFIX[0]!);
  while (at >= 0 && at + 7 <= head.length) {
    const match = prefixAt(head, at) ? signatureAt(head, at) : null;
    if (match) found.push(match);
    at = head.indexOf(PREFIX[0]!, at + 1);
  }
  return found;
}

export const isRar14 = (head: Uint8Array) =>
  head[0] === 0x52 && head[1] === 0x45 && head[2] === 0x7e && head[3] === 0x5e;
