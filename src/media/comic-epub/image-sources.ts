/**
 * Where each page image of a comic comes from when the comic is written as an EPUB, and in which form it goes
 * in: the bytes are never decoded or re-encoded.
 *
 * - A CBZ page is copied as its archive stores it: the compressed bytes, with the archive's method (stored or
 *   deflate), CRC-32 and sizes, which the page's locator already holds (src/media/zip/page-locator.ts). No
 *   inflating, no CRC pass.
 * - A CBR page stored in the RAR (the usual case: images do not compress) is copied the same way; RAR headers
 *   carry the unpacked data's CRC-32, the same CRC ZIP uses.
 * - A CBR page compressed in the RAR is unpacked by unrar (as serving the page does) and stored in the EPUB.
 *
 * A RAR5 archive may record a BLAKE2 hash instead of a CRC-32: that page's CRC is unknown until read once
 * (`crc32: null`), and the writer asks for it before laying the file out.
 */
import type { BookFormat, JsonValue, PageLocator } from '../container';
import { crc32Update } from '../crc32';
import { BookAnalysisError } from '../errors';
import type { RangeReader } from '../range-reader';
import { parseRarLocator, type RarPageRef } from '../rar/rar-locator';
import { readRarEntry } from '../rar/rar-pages';
import { rawEntryStream, type ZipEntryRef } from '../zip/entry';
import { zipEntryRef } from '../zip/page-locator';
import { DEFLATED, STORED } from './zip-records';

export type ImageSource = { kind: 'zip'; entry: ZipEntryRef } | { kind: 'rar'; ref: RarPageRef };

/** How the image is written into the EPUB's ZIP: method, CRC-32 (null: not known yet) and sizes. */
export interface ImageForm {
  method: typeof STORED | typeof DEFLATED;
  crc32: number | null;
  /** Bytes of the entry's data in the EPUB. */
  compressedSize: number;
  size: number;
  /** Where the data starts in the book file, for reading pages in file order (one pass over the archive). */
  order: number;
}

/** The source of a comic page (a CBZ or CBR page locator); throws for anything else. */
export function imageSourceOf(format: BookFormat, locator: PageLocator): ImageSource {
  if (format === 'cbz') return { kind: 'zip', entry: zipEntryRef(locator) };
  if (format === 'cbr') return { kind: 'rar', ref: parseRarLocator(locator) };
  throw new BookAnalysisError('unsupported_format', `A ${format} book has no archive pages to copy`);
}

export function imageForm(source: ImageSource): ImageForm {
  if (source.kind === 'zip') {
    const { entry } = source;
    if (entry.encrypted || (entry.method !== STORED && entry.method !== DEFLATED)) {
      throw new BookAnalysisError('unsupported_compression', `The entry ${entry.name} cannot be copied into an EPUB`);
    }
    return {
      method: entry.method,
      crc32: entry.crc32,
      compressedSize: entry.compressedSize,
      size: entry.size,
      order: entry.offset,
    };
  }
  const { ref } = source;
  if (ref.method === 0 && ref.packedSize !== ref.unpackedSize) {
    throw new BookAnalysisError('corrupt', `The entry ${ref.name} is stored but its sizes disagree`);
  }
  return {
    method: STORED,
    crc32: ref.crc32,
    compressedSize: ref.unpackedSize,
    size: ref.unpackedSize,
    order: ref.dataOffset,
  };
}

const streamOf = (bytes: Uint8Array) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });

/**
 * The image's data as the EPUB stores it (imageForm): compressed bytes of a CBZ entry, the bytes of a stored
 * RAR entry, or a packed RAR entry unpacked (checked against its CRC by unrar).
 */
export async function openImageData(
  reader: RangeReader,
  source: ImageSource,
  containerIndex: JsonValue | null,
): Promise<ReadableStream<Uint8Array>> {
  if (source.kind === 'zip') return rawEntryStream(reader, source.entry);
  const { ref } = source;
  if (ref.method === 0) return reader.stream(ref.dataOffset, ref.packedSize);
  return streamOf(await readRarEntry(reader, ref, containerIndex));
}

/** The CRC-32 of an image whose archive recorded none (RAR5 with BLAKE2 hashes): one read of its data. */
export async function checksumOf(
  reader: RangeReader,
  source: ImageSource,
  containerIndex: JsonValue | null,
): Promise<number> {
  let crc = 0;
  for await (const chunk of (await openImageData(
    reader,
    source,
    containerIndex,
  )) as unknown as AsyncIterable<Uint8Array>) {
    crc = crc32Update(crc, chunk);
  }
  return crc;
}
