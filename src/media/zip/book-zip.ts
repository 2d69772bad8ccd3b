/** The entries of a ZIP-based book (CBZ, EPUB), after checking the bytes really are a ZIP. */
import type { BookFormat } from '../container';
import { assertFormat } from '../detect';
import { BookAnalysisError } from '../errors';
import type { RangeReader } from '../range-reader';
import { readZipDirectory, type ZipEntry } from './directory';

export async function readBookZip(reader: RangeReader, format: BookFormat): Promise<ZipEntry[]> {
  try {
    await assertFormat(reader, format);
  } catch (error) {
    if (!(error instanceof BookAnalysisError && error.code === 'format_mismatch' && error.detectedFormat === null)) {
      throw error;
    }
    // Self-extracting archives start with a program, not a ZIP header; their directory at the end
    // still finds every entry. Anything else keeps the "not a ZIP" message.
    const directory = await readZipDirectory(reader).catch(() => null);
    if (!directory || directory.prefix === 0) throw error;
    return directory.entries;
  }
  return (await readZipDirectory(reader)).entries;
}
