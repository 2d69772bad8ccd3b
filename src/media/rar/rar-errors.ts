/** The RAR failures a person can act on, in plain words (codes: docs/error-codes.md). */
import { BookAnalysisError } from '../errors';

export const encryptedArchive = () =>
  new BookAnalysisError('encrypted', 'The RAR archive is password-protected; Longbox cannot read encrypted files');

export const multiVolumeArchive = () =>
  new BookAnalysisError(
    'multi_volume',
    'The RAR archive is one part of a multi-volume set; join the parts into one archive (or repack the book as a CBZ)',
  );

export const tooManyEntries = (limit: number) =>
  new BookAnalysisError(
    'too_large',
    `The RAR archive lists more than ${limit} entries; Longbox reads at most ${limit}`,
  );

export const truncatedArchive = () =>
  new BookAnalysisError('truncated', 'The RAR archive is truncated: it ends before the data its headers describe');

/** Most entries one archive may list: bounds analysis time and the stored index. */
export const MAX_ENTRIES = 50_000;
