/**
 * Uploading book files and whole folders into a library (API.md §4 Libraries, the upload routes):
 * small files in one PUT, large ones as a multipart upload in 8 MiB parts (R2 wants every part but the
 * last to be at least 5 MiB and all the same size), so a file of any size streams without being held
 * in memory. XMLHttpRequest rather than fetch because only it reports upload progress.
 */
import { ApiError, apiErrorFrom, apiUrl, post, reportUnauthorized } from '../api/client';

export const BOOK_EXTENSIONS = ['.cbz', '.cbr', '.epub', '.pdf'];
export const PART_SIZE = 8 * 1024 * 1024;
/** Files up to this size go in one request. */
export const SINGLE_REQUEST_LIMIT = 2 * PART_SIZE;

export interface UploadItem {
  file: File;
  /** Path inside the library folder, with the dropped folder's own name first. */
  path: string;
}

export interface UploadReport {
  uploaded: string[];
  /** Already in the library (409): left untouched. */
  existing: string[];
  failed: { path: string; message: string }[];
}

export function isBookFile(name: string): boolean {
  const lower = name.toLowerCase();
  return BOOK_EXTENSIONS.some((extension) => lower.endsWith(extension));
}

function fileUrl(libraryId: string, path: string, query?: Record<string, string | number>): string {
  const encoded = path.split('/').map(encodeURIComponent).join('/');
  return apiUrl(`/libraries/${libraryId}/files/${encoded}`, query);
}

/** One PUT with progress; resolves with the parsed JSON answer. */
function send(url: string, body: Blob, onProgress: (loaded: number) => void, signal?: AbortSignal): Promise<any> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    // Signed in by the session cookie, like every other request of the app.
    xhr.open('PUT', url);
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.upload.onprogress = (event) => onProgress(event.loaded);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(body.size);
        resolve(xhr.responseText ? JSON.parse(xhr.responseText) : null);
      } else {
        if (xhr.status === 401) reportUnauthorized();
        reject(apiErrorFrom(xhr.status, xhr.responseText));
      }
    };
    xhr.onerror = () => reject(new ApiError(0, 'NetworkError', 'Network error'));
    xhr.onabort = () => reject(new DOMException('Aborted', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(body);
  });
}

async function uploadOne(
  libraryId: string,
  item: UploadItem,
  onProgress: (loaded: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  const { file, path } = item;
  if (file.size <= SINGLE_REQUEST_LIMIT) {
    await send(fileUrl(libraryId, path), file, onProgress, signal);
    return;
  }
  const filePath = `/libraries/${libraryId}/files/${path.split('/').map(encodeURIComponent).join('/')}`;
  const { uploadId } = await post<{ uploadId: string }>(filePath, undefined, { query: { uploads: '' } });
  const parts: { partNumber: number; etag: string }[] = [];
  try {
    for (let offset = 0, partNumber = 1; offset < file.size; offset += PART_SIZE, partNumber++) {
      const blob = file.slice(offset, offset + PART_SIZE);
      const done = offset;
      const part = await send(
        fileUrl(libraryId, path, { uploadId, partNumber }),
        blob,
        (loaded) => onProgress(done + loaded),
        signal,
      );
      parts.push({ partNumber, etag: part.etag });
    }
    await post(filePath, { parts }, { query: { uploadId } });
  } catch (error) {
    await fetch(fileUrl(libraryId, path, { uploadId }), { method: 'DELETE', credentials: 'same-origin' }).catch(
      () => {},
    );
    throw error;
  }
}

/** Uploads each item in turn, reporting bytes sent over all of them. */
export async function uploadAll(
  libraryId: string,
  items: UploadItem[],
  onProgress: (sent: number, total: number, current: string) => void,
  signal?: AbortSignal,
): Promise<UploadReport> {
  const total = items.reduce((sum, item) => sum + item.file.size, 0);
  const report: UploadReport = { uploaded: [], existing: [], failed: [] };
  let finished = 0;
  for (const item of items) {
    if (signal?.aborted) break;
    try {
      await uploadOne(libraryId, item, (loaded) => onProgress(finished + loaded, total, item.path), signal);
      report.uploaded.push(item.path);
    } catch (error) {
      if ((error as Error).name === 'AbortError') break;
      if (error instanceof ApiError && error.status === 409) report.existing.push(item.path);
      else report.failed.push({ path: item.path, message: (error as Error).message });
    }
    finished += item.file.size;
    onProgress(finished, total, item.path);
  }
  return report;
}

/** The files of a drop, folders walked recursively (their names kept as path prefixes). */
export async function itemsFromDrop(transfer: DataTransfer): Promise<UploadItem[]> {
  const entries = [...transfer.items]
    .map((item) => item.webkitGetAsEntry?.())
    .filter((entry): entry is FileSystemEntry => Boolean(entry));
  if (entries.length === 0) return itemsFromFiles(transfer.files);
  const items: UploadItem[] = [];
  for (const entry of entries) await walk(entry, '', items);
  return items.filter((item) => isBookFile(item.path));
}

async function walk(entry: FileSystemEntry, prefix: string, into: UploadItem[]): Promise<void> {
  const path = prefix ? `${prefix}/${entry.name}` : entry.name;
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject));
    into.push({ file, path });
    return;
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries answers in batches (100 in Chromium): read until it gives nothing.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) => reader.readEntries(resolve, reject));
    if (batch.length === 0) break;
    for (const child of batch) await walk(child, path, into);
  }
}

/** Files from an `<input type="file">`; with `webkitdirectory` their relative paths carry the folders. */
export function itemsFromFiles(files: FileList | File[]): UploadItem[] {
  return [...files]
    .map((file) => ({ file, path: file.webkitRelativePath || file.name }))
    .filter((item) => isBookFile(item.path));
}
