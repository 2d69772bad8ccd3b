/**
 * The few Longbox API calls the import command makes (API.md §4 Libraries and Scanning, DECISIONS.md
 * §Storage uploads), authenticated with an API key. File bodies are streamed from disk, never read whole.
 */
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { LocalBook } from './walk';

export interface RemoteLibrary {
  id: string;
  name: string;
  path: string;
}

/** A non-2xx answer, carrying the API's `{error, message}` envelope when there is one. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export type UploadOutcome = 'uploaded' | 'exists';

export class LongboxClient {
  private readonly apiBase: string;

  constructor(
    baseUrl: string,
    private readonly apiKey: string,
  ) {
    this.apiBase = `${baseUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, '')}/api/v1`;
  }

  listLibraries(): Promise<RemoteLibrary[]> {
    return this.json('GET', '/libraries');
  }

  createLibrary(name: string, path: string): Promise<RemoteLibrary> {
    return this.json('POST', '/libraries', { name, path });
  }

  /** Starts a scan; the answer's status tells the caller whether this server has the endpoint. */
  async startScan(libraryId: string): Promise<Response> {
    return this.send('POST', `/libraries/${libraryId}/scan`);
  }

  /** One streamed PUT. A 409 (object exists, no overwrite) is an outcome, not an error. */
  async uploadWhole(libraryId: string, book: LocalBook, overwrite: boolean): Promise<UploadOutcome> {
    const response = await this.send('PUT', this.filePath(libraryId, book, overwrite ? { overwrite: 'true' } : {}), {
      body: fileStream(book.absolutePath),
      length: book.size,
    });
    if (response.status === 409 && !overwrite) return 'exists';
    await expectOk(response);
    return 'uploaded';
  }

  /** R2 multipart: equal parts of `partSize` bytes (the last may be shorter); aborted on failure. */
  async uploadInParts(
    libraryId: string,
    book: LocalBook,
    overwrite: boolean,
    partSize: number,
  ): Promise<UploadOutcome> {
    const flags: Record<string, string> = overwrite ? { overwrite: 'true' } : {};
    const started = await this.send('POST', this.filePath(libraryId, book, { ...flags, uploads: '' }));
    if (started.status === 409 && !overwrite) return 'exists';
    const { uploadId } = (await expectOk(started).then((r) => r.json())) as { uploadId: string };
    try {
      const parts: Array<{ partNumber: number; etag: string }> = [];
      for (let start = 0, partNumber = 1; start < book.size; start += partSize, partNumber++) {
        const end = Math.min(start + partSize, book.size);
        const query = { uploadId, partNumber: String(partNumber) };
        const response = await this.send('PUT', this.filePath(libraryId, book, query), {
          body: fileStream(book.absolutePath, start, end - 1),
          length: end - start,
        });
        parts.push((await expectOk(response).then((r) => r.json())) as { partNumber: number; etag: string });
      }
      const done = await this.send('POST', this.filePath(libraryId, book, { ...flags, uploadId }), { json: { parts } });
      if (done.status === 409 && !overwrite) throw new ApiError(409, 'the file appeared while it was uploading');
      await expectOk(done);
      return 'uploaded';
    } catch (error) {
      await this.send('DELETE', this.filePath(libraryId, book, { uploadId })).catch(() => undefined);
      throw error;
    }
  }

  private filePath(libraryId: string, book: LocalBook, query: Record<string, string>): string {
    const encoded = book.relativePath.split('/').map(encodeURIComponent).join('/');
    const search = Object.entries(query)
      .map(([key, value]) => (value === '' ? key : `${key}=${encodeURIComponent(value)}`))
      .join('&');
    return `/libraries/${libraryId}/files/${encoded}${search ? `?${search}` : ''}`;
  }

  private async json<T>(method: string, path: string, json?: unknown): Promise<T> {
    const response = await expectOk(await this.send(method, path, json === undefined ? {} : { json }));
    return (await response.json()) as T;
  }

  private send(
    method: string,
    path: string,
    options: { json?: unknown; body?: ReadableStream<Uint8Array>; length?: number } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { 'X-API-Key': this.apiKey, Accept: 'application/json' };
    let body: BodyInit | undefined = options.body;
    if (options.json !== undefined) {
      body = JSON.stringify(options.json);
      headers['Content-Type'] = 'application/json';
    } else if (options.body) {
      headers['Content-Type'] = 'application/octet-stream';
      // The server streams the body into storage, which needs the length up front.
      headers['Content-Length'] = String(options.length);
    }
    return fetch(`${this.apiBase}${path}`, { method, headers, body, duplex: 'half' } as RequestInit);
  }
}

function fileStream(file: string, start?: number, end?: number): ReadableStream<Uint8Array> {
  // Node's web stream type and the ambient (Workers) one differ only on paper.
  return Readable.toWeb(createReadStream(file, { start, end })) as unknown as ReadableStream<Uint8Array>;
}

async function expectOk(response: Response): Promise<Response> {
  if (response.ok) return response;
  const text = await response.text();
  let message = text.slice(0, 300) || response.statusText;
  try {
    message = (JSON.parse(text) as { message?: string }).message ?? message;
  } catch {
    // Not the JSON envelope (a proxy error page, say): show the raw text.
  }
  throw new ApiError(response.status, `${response.status}: ${message}`);
}
