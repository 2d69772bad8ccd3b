/**
 * KOReader sync (kosync) over the user's reading progress (DECISIONS.md §Reader apps; issue 9 point 4).
 * A document is a book's readerHash (KOReader's partial MD5), compared case-insensitively. Comics and
 * PDFs move by page number (`progress` is the page, from 1); EPUBs by KOReader's xpointer, stored as
 * the progress locator and returned to the next device as sent, with the percentage KOReader computed.
 * Progress pushed here is the same record the API and the OPDS catalogs read.
 */
import { fractionAtPage, lastPage } from '../progress/rules';
import { readerFacingDevice } from '../mappers/book.mapper';
import type { Viewer } from '../repositories/visibility';
import type { ProgressActor, ReadProgressService } from '../services/read-progress.service';
import { MAX_LOCATOR_BYTES } from '../schemas/read-progress.schema';
import { kosyncErrors } from './kosync-errors';

/** The body KOReader PUTs to /syncs/progress (KOSyncClient.lua updateProgress). */
export interface KosyncPush {
  document: string;
  progress: string;
  percentage: number;
  device: string;
  device_id?: string;
}

/** What GET /syncs/progress/:document answers: the reference server's fields, or nothing at all. */
export type KosyncPull =
  | { document: string; percentage: number; progress?: string; device: string; device_id: string; timestamp: number }
  | Record<string, never>;

/** The reference server's rule for a document (a redis key part): a non-empty string without ':'. */
export const isValidDocument = (value: unknown): value is string =>
  typeof value === 'string' && value.length > 0 && !value.includes(':');

/** KOReader's device names and ids are short (a model name, a 32-character id). */
const DEVICE_MAX = 200;

const epochSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

export class KosyncService {
  constructor(private readonly progress: ReadProgressService) {}

  /** Validates a push as the reference server does, then writes it; nothing is written on any error. */
  async push(actor: ProgressActor, body: Record<string, unknown>): Promise<{ document: string; timestamp: number }> {
    if (!isValidDocument(body.document)) throw kosyncErrors.documentMissing();
    const document = body.document;
    // Lua's tonumber: a number, or a string holding one.
    const percentage =
      typeof body.percentage === 'string' && body.percentage.trim() !== '' ? Number(body.percentage) : body.percentage;
    if (typeof percentage !== 'number' || !Number.isFinite(percentage))
      throw kosyncErrors.invalid('percentage must be a number');
    if (percentage < 0 || percentage > 1) throw kosyncErrors.invalid('percentage must be between 0 and 1');
    const progress = typeof body.progress === 'number' ? String(body.progress) : body.progress;
    if (typeof progress !== 'string' || progress === '') throw kosyncErrors.invalid('progress is required');
    if (typeof body.device !== 'string' || body.device === '') throw kosyncErrors.invalid('device is required');
    if (body.device_id !== undefined && typeof body.device_id !== 'string')
      throw kosyncErrors.invalid('device_id must be a string');
    if (body.device.length > DEVICE_MAX || (body.device_id?.length ?? 0) > DEVICE_MAX)
      throw kosyncErrors.invalid(`device and device_id must be at most ${DEVICE_MAX} characters`);
    const device = { id: body.device_id ?? '', name: body.device };

    // One statement finds the book by its hash, checks the position against it and writes it (writeInBook).
    const fitsLocator = new TextEncoder().encode(progress).length <= MAX_LOCATOR_BYTES;
    const result = await this.progress.writeInBook(
      actor,
      { readerHash: document },
      { kind: 'kosync', progress, fraction: percentage, fitsLocator },
      { readerDevice: device },
    );
    if (!result.written) {
      if (!result.book) throw kosyncErrors.invalid(`no book in Longbox has the document hash ${document}`);
      // KOReader reads every EPUB reflowed: its progress is an xpointer, kept as the locator.
      if (result.book.fileFormat === 'epub') {
        throw kosyncErrors.invalid(`progress must be at most ${MAX_LOCATOR_BYTES} bytes`);
      }
      throw kosyncErrors.invalid(`progress must be a page number from 1 to ${lastPage(result.book.pageCount)}`);
    }
    const record = result.written;
    return { document, timestamp: epochSeconds(record.updatedAt) };
  }

  /** The stored progress of a document, or `{}` when the book or its progress is unknown (reference server). */
  async pull(viewer: Viewer, document: string): Promise<KosyncPull> {
    // The book and the progress in it, in one read.
    const found = await this.progress.inReaderHashBook(viewer, document);
    if (!found?.progress) return {};
    const { book, progress: record } = found;
    const percentage = record.progressPercentage ?? fractionAtPage(record.currentPage, book.pageCount);
    // An EPUB position set elsewhere (the web reader, Thorium) has no xpointer: KOReader then gets the
    // percentage alone rather than a place it cannot open.
    // A CFI stored by another app is no xpointer either.
    const xpointer = record.locator?.startsWith('/') ? record.locator : undefined;
    const progress = book.fileFormat === 'epub' ? xpointer : String(record.currentPage);
    // As the pushing device named itself, so it recognises its own progress (DECISIONS.md §Reader apps).
    const device = readerFacingDevice(record);
    return {
      document,
      percentage,
      ...(progress !== undefined ? { progress } : {}),
      device: device.name,
      device_id: device.id,
      timestamp: epochSeconds(record.updatedAt),
    };
  }
}
