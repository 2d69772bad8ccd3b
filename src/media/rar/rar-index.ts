/**
 * Builds the header index of a RAR archive (any of RAR 1.5–4.x or RAR5, optionally behind a
 * self-extractor stub) from small range reads; the file is never loaded whole.
 */
import { assertFormat } from '../detect';
import { BookAnalysisError } from '../errors';
import type { RangeReader } from '../range-reader';
import type { RarArchiveIndex } from './rar-entry';
import { readRar4Index } from './rar4-index';
import { readRar5Index } from './rar5-index';
import { isRar14, MAX_SFX_SIZE, type SignatureMatch, signatureAt, signatureCandidates } from './signature';
import { WindowedReader } from './windowed-reader';

const readIndexAt = (w: WindowedReader, match: SignatureMatch) =>
  match.format === 5 ? readRar5Index(w, match) : readRar4Index(w, match);

export async function readRarIndex(reader: RangeReader): Promise<RarArchiveIndex> {
  if (reader.size === 0) throw new BookAnalysisError('truncated', 'The file is empty');
  const w = new WindowedReader(reader);
  const head = await w.upTo(0, 8);
  const atStart = signatureAt(head, 0);
  if (atStart) return readIndexAt(w, atStart);
  if (isRar14(head)) {
    throw new BookAnalysisError(
      'unsupported_format',
      'The file is a RAR 1.4 archive, a format too old for Longbox; repack the book as a CBZ',
    );
  }
  // A self-extracting archive: the stub may itself contain the signature bytes, so each candidate
  // is tried in order and the first with a valid main header wins.
  const candidates = signatureCandidates(await w.upTo(0, MAX_SFX_SIZE));
  if (candidates.length === 0) {
    await assertFormat(reader, 'cbr');
    throw new BookAnalysisError('format_mismatch', 'The file is not a RAR archive although it is named .cbr');
  }
  let firstError: unknown = null;
  for (const candidate of candidates) {
    try {
      return await readIndexAt(w, candidate);
    } catch (error) {
      firstError ??= error;
    }
  }
  throw firstError;
}
