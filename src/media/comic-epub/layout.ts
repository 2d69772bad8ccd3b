/**
 * The byte layout of a comic written as a fixed-layout EPUB: every entry's place, header and length, worked
 * out before the first byte from what the book's page index holds (each image's method, CRC-32 and sizes).
 * The file is a list of segments — bytes made here (ZIP headers, the package files) and image data copied
 * from the archive — so its total length is the Content-Length and any byte range maps to a few segments.
 *
 * Entry order: `mimetype` first and stored (EPUB 3.2 OCF §4.3), the container, package and navigation
 * documents, the page documents in reading order, then the images in the order their data sits in the
 * archive, so a whole download reads the book file front to back.
 */
import { BookAnalysisError } from '../errors';
import type { ImageForm, ImageSource } from './image-sources';
import {
  CONTAINER_PATH,
  containerXml,
  type EpubBookInfo,
  type EpubPage,
  imageName,
  MIMETYPE,
  NAV_PATH,
  navDocument,
  PACKAGE_PATH,
  packageDocument,
  pageDocument,
  pageDocumentName,
} from './package-files';
import { crc32 } from '../crc32';
import {
  centralDirectory,
  dosDateTime,
  END_RECORD_SIZE,
  endOfCentralDirectory,
  localHeader,
  MAX_CLASSIC_ENTRIES,
  MAX_CLASSIC_OFFSET,
  STORED,
  type ZipRecordEntry,
} from './zip-records';

/** One page image: the page the EPUB shows, and the form its data goes in (its source, for the stream). */
export interface LaidOutImage {
  page: EpubPage;
  form: ImageForm & { crc32: number };
}

/** An image with where its data comes from: what the stream reads. */
export interface ComicEpubImage extends LaidOutImage {
  source: ImageSource;
  /** Not copied but redrawn for a device's screen, from this page of the book (comic-epub.ts PageFit). */
  redraw: { sourcePage: number } | null;
}

export type Segment<I extends LaidOutImage = ComicEpubImage> =
  | { kind: 'bytes'; offset: number; length: number; bytes: Uint8Array }
  | { kind: 'image'; offset: number; length: number; image: I };

export interface ComicEpubLayout<I extends LaidOutImage = ComicEpubImage> {
  size: number;
  segments: ReadonlyArray<Segment<I>>;
}

const encoder = new TextEncoder();
const OEBPS = 'OEBPS/';

export function comicEpubLayout<I extends LaidOutImage>(book: EpubBookInfo, images: readonly I[]): ComicEpubLayout<I> {
  const count = images.length;
  if (count === 0) throw new BookAnalysisError('no_pages', 'The book has no pages to put in an EPUB');
  const pages = images.map((image) => image.page);
  const stamp = dosDateTime(book.modified);
  const segments: Array<Segment<I>> = [];
  const entries: Array<ZipRecordEntry & { offset: number }> = [];
  let offset = 0;
  const push = (segment: Segment<I>) => {
    segments.push(segment);
    offset += segment.length;
  };
  const addHeader = (entry: ZipRecordEntry) => {
    entries.push({ ...entry, offset });
    const header = localHeader(entry, stamp);
    push({ kind: 'bytes', offset, length: header.length, bytes: header });
  };
  const addText = (name: string, text: string) => {
    const data = encoder.encode(text);
    addHeader({ name, method: STORED, crc32: crc32(data), compressedSize: data.length, size: data.length });
    push({ kind: 'bytes', offset, length: data.length, bytes: data });
  };

  addText('mimetype', MIMETYPE);
  addText(CONTAINER_PATH, containerXml());
  addText(PACKAGE_PATH, packageDocument(book, pages));
  addText(NAV_PATH, navDocument(book, pages));
  for (const page of pages) addText(`${OEBPS}${pageDocumentName(page.number, count)}`, pageDocument(page, count));
  for (const image of [...images].sort((a, b) => a.form.order - b.form.order)) {
    const { method, crc32: crc, compressedSize, size } = image.form;
    addHeader({ name: `${OEBPS}${imageName(image.page, count)}`, method, crc32: crc, compressedSize, size });
    push({ kind: 'image', offset, length: compressedSize, image });
  }
  const directory = centralDirectory(entries, stamp);
  const directoryOffset = offset;
  const end = endOfCentralDirectory(entries.length, directory.length, directoryOffset);
  const tail = new Uint8Array(directory.length + END_RECORD_SIZE);
  tail.set(directory);
  tail.set(end, directory.length);
  push({ kind: 'bytes', offset, length: tail.length, bytes: tail });
  if (directoryOffset > MAX_CLASSIC_OFFSET || entries.length > MAX_CLASSIC_ENTRIES) {
    throw new BookAnalysisError('too_large', 'The book is too large to be written as an EPUB (more than 4 GiB)');
  }
  return { size: offset, segments };
}

/** A page as the sync knows it before any archive is read: enough for the EPUB's exact length. */
export interface SizedPage {
  number: number;
  mediaType: EpubPage['mediaType'];
  width: number;
  height: number;
  /** Bytes its image takes in the EPUB (compressed size for a CBZ entry, unpacked size for a CBR one). */
  dataSize: number;
}

/** The EPUB's length in bytes, as comicEpubLayout will lay it out for the same book and pages. */
export function comicEpubSize(book: EpubBookInfo, pages: readonly SizedPage[]): number {
  const images = pages.map(
    (page, order): LaidOutImage => ({
      page: { number: page.number, mediaType: page.mediaType, width: page.width, height: page.height },
      form: { method: STORED, crc32: 0, compressedSize: page.dataSize, size: page.dataSize, order },
    }),
  );
  return comicEpubLayout(book, images).size;
}
