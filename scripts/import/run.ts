/**
 * The import itself: resolve (or create) the library, upload every local book through the API — one
 * streamed PUT for small files, R2 multipart above the threshold — skip what is already there, then ask
 * the server for a scan.
 */
import type { LongboxClient, RemoteLibrary, UploadOutcome } from './client';
import { findBooks, type LocalBook } from './walk';

export interface ImportOptions {
  folder: string;
  library: string;
  create: boolean;
  /** Key prefix for a library created with --create. */
  path?: string;
  overwrite: boolean;
  concurrency: number;
  multipartThreshold: number;
  partSize: number;
}

export interface ImportSummary {
  found: number;
  uploaded: number;
  uploadedBytes: number;
  skipped: number;
  failed: Array<{ path: string; error: string }>;
  scan: 'started' | 'unavailable' | 'failed';
}

export type Log = (line: string) => void;

export async function importFolder(client: LongboxClient, options: ImportOptions, log: Log): Promise<ImportSummary> {
  const library = await resolveLibrary(client, options, log);
  const books = await findBooks(options.folder);
  log(`Found ${books.length} book file(s) in ${options.folder}`);
  const summary: ImportSummary = {
    found: books.length,
    uploaded: 0,
    uploadedBytes: 0,
    skipped: 0,
    failed: [],
    scan: 'failed',
  };
  const width = String(books.length).length;
  let done = 0;

  const uploadOne = async (book: LocalBook) => {
    let line: string;
    try {
      const outcome: UploadOutcome =
        book.size > options.multipartThreshold
          ? await client.uploadInParts(library.id, book, options.overwrite, options.partSize)
          : await client.uploadWhole(library.id, book, options.overwrite);
      if (outcome === 'uploaded') {
        summary.uploaded += 1;
        summary.uploadedBytes += book.size;
        line = `uploaded  ${book.relativePath} (${formatBytes(book.size)})`;
      } else {
        summary.skipped += 1;
        line = `skipped   ${book.relativePath} (already in the library)`;
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      summary.failed.push({ path: book.relativePath, error: message });
      line = `FAILED    ${book.relativePath}: ${message}`;
    }
    done += 1;
    log(`[${String(done).padStart(width)}/${books.length}] ${line}`);
  };

  let next = 0;
  const worker = async () => {
    while (next < books.length) {
      const book = books[next++] as LocalBook;
      await uploadOne(book);
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, books.length) }, worker));

  summary.scan = await startScan(client, library, log);
  return summary;
}

async function resolveLibrary(client: LongboxClient, options: ImportOptions, log: Log): Promise<RemoteLibrary> {
  const libraries = await client.listLibraries();
  const wanted = options.library.toLowerCase();
  const existing =
    libraries.find((l) => l.name === options.library) ?? libraries.find((l) => l.name.toLowerCase() === wanted);
  if (existing) {
    log(`Library "${existing.name}" (${existing.path || '/'})`);
    return existing;
  }
  if (!options.create || options.path === undefined) {
    const names = libraries.map((l) => `"${l.name}"`).join(', ') || 'none';
    throw new Error(
      `No library named "${options.library}" (existing: ${names}); pass --create --path <prefix> to create it`,
    );
  }
  const created = await client.createLibrary(options.library, options.path);
  log(`Created library "${created.name}" at ${created.path || '/'}`);
  return created;
}

async function startScan(client: LongboxClient, library: RemoteLibrary, log: Log): Promise<ImportSummary['scan']> {
  try {
    const response = await client.startScan(library.id);
    if (response.ok) {
      log(`Scan of "${library.name}" started`);
      return 'started';
    }
    const body = (await response.json().catch(() => ({}))) as { message?: string };
    const reason = `${response.status}: ${body.message ?? response.statusText}`;
    if (response.status === 404) {
      log(`No scan started (${reason}); this server may not have the scan endpoint yet, start a scan yourself`);
      return 'unavailable';
    }
    log(`Could not start a scan (${reason})`);
  } catch (error) {
    log(`Could not start a scan: ${error instanceof Error ? error.message : String(error)}`);
  }
  return 'failed';
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}
