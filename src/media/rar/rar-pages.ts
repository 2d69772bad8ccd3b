/**
 * Serving entries of a CBR from their stored locators. A stored entry (the usual CBR: images do not
 * compress) is one range read streamed through a CRC-32 check; a compressed one goes through unrar.
 */
import type { ImageDimensions, JsonValue, PageContent, PageLocator } from '../container';
import { BookAnalysisError } from '../errors';
import { HEADER_SCAN_LIMIT, parseImageHeader, readImageDimensions } from '../image-header';
import { imageMediaType } from '../image-types';
import type { RangeReader } from '../range-reader';
import { checksumError, crc32, crc32VerifyingStream } from '../crc32';
import { extractPacked } from './rar-extract';
import { chainFromIndex, parseRarLocator, type RarPageRef } from './rar-locator';

export function assertStoredSizes(ref: { name: string; packedSize: number; unpackedSize: number }): void {
  if (ref.packedSize !== ref.unpackedSize) {
    throw new BookAnalysisError('corrupt', `The entry ${ref.name} is stored but its sizes disagree`);
  }
}

function decompressionChain(ref: RarPageRef, containerIndex: JsonValue | null | undefined) {
  if (!ref.chain) return [ref];
  const chain = chainFromIndex(containerIndex, ref.chain);
  if (chain[chain.length - 1]!.dataOffset !== ref.dataOffset) {
    throw new BookAnalysisError(
      'page_not_found',
      "The page is not where the book's index says; the book needs to be analysed again",
    );
  }
  return chain;
}

/** The whole entry, checked against its CRC-32 (by us when stored, by unrar when compressed). */
export async function readRarEntry(
  reader: RangeReader,
  ref: RarPageRef,
  containerIndex: JsonValue | null | undefined,
): Promise<Uint8Array> {
  if (ref.method !== 0) return extractPacked(reader, ref.format, decompressionChain(ref, containerIndex), ref.name);
  assertStoredSizes(ref);
  const bytes = await reader.read(ref.dataOffset, ref.packedSize);
  if (ref.crc32 !== null && crc32(bytes) !== ref.crc32) throw checksumError(ref.name);
  return bytes;
}

const streamOf = (bytes: Uint8Array) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });

export async function openRarPage(
  reader: RangeReader,
  locator: PageLocator,
  containerIndex: JsonValue | null | undefined,
): Promise<PageContent> {
  const ref = parseRarLocator(locator);
  const mediaType = imageMediaType(ref.name) ?? 'application/octet-stream';
  if (ref.method !== 0) {
    const bytes = await readRarEntry(reader, ref, containerIndex);
    return { stream: streamOf(bytes), size: bytes.length, mediaType };
  }
  assertStoredSizes(ref);
  const raw = await reader.stream(ref.dataOffset, ref.packedSize);
  const stream =
    ref.crc32 === null ? raw : raw.pipeThrough(crc32VerifyingStream(ref.crc32, ref.unpackedSize, ref.name));
  return { stream, size: ref.unpackedSize, mediaType };
}

/** Stored pages: only the first bytes are read (no CRC: the entry is not read whole). */
export async function readRarPageHeader(
  reader: RangeReader,
  locator: PageLocator,
  containerIndex: JsonValue | null | undefined,
): Promise<ImageDimensions | null> {
  const ref = parseRarLocator(locator);
  if (ref.method === 0) {
    return readImageDimensions(await reader.stream(ref.dataOffset, Math.min(ref.packedSize, HEADER_SCAN_LIMIT)));
  }
  const header = parseImageHeader(await readRarEntry(reader, ref, containerIndex));
  return header === 'need-more' ? null : header;
}
