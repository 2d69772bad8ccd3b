/**
 * The Longbox calls the migrate command makes: the library list and the admin import API (docs/API.md §Import),
 * with an admin's API key. Lists of things go in batches within the API's limits (items per batch, and a JSON
 * body under the 1 MiB request limit).
 */
import { ApiError } from '../import/client';

export { ApiError };

/** Below the API's 1 MiB JSON body limit, with room for the envelope. */
const MAX_BODY_BYTES = 900 * 1024;

export interface RemoteLibrary {
  id: string;
  name: string;
  path: string;
}

export interface Outcome {
  foreignId: string;
  id: string | null;
  outcome: 'created' | 'merged' | 'unchanged' | 'skipped';
  reason: string | null;
}

export interface Counts {
  written: number;
  unchanged: number;
  skipped: Array<{ index: number; reason: string }>;
}

export interface BookMatch {
  ref: string;
  bookId: string | null;
  seriesId: string | null;
  by: 'path' | 'readerHash' | 'sizeAndName' | null;
  reason: string | null;
}

/** `items` cut into batches of at most `count` items whose JSON stays under the body limit. */
export function batches<T>(items: readonly T[], count: number): T[][] {
  const result: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = JSON.stringify(item).length + 1;
    if (current.length > 0 && (current.length >= count || bytes + size > MAX_BODY_BYTES)) {
      result.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length > 0) result.push(current);
  return result;
}

export class MigrationClient {
  private readonly apiBase: string;
  /** Requests made, for the report and the benchmark. */
  requests = 0;

  /** `fetcher`: how requests are made (the benchmark hands it the app itself, in Node, to count its statements). */
  constructor(
    baseUrl: string,
    private readonly apiKey: string,
    private readonly fetcher: typeof fetch = fetch,
  ) {
    this.apiBase = `${baseUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, '')}/api/v1`;
  }

  /** The admin's own account: checks the key before anything is read or sent. */
  me(): Promise<{ id: string; username: string; role: string }> {
    return this.json('GET', '/auth/me');
  }

  libraries(): Promise<RemoteLibrary[]> {
    return this.json('GET', '/libraries');
  }

  async matchBooks(books: unknown[]): Promise<BookMatch[]> {
    return (await this.json<{ matches: BookMatch[] }>('POST', '/admin/import/books/match', { books })).matches;
  }

  async users(source: string, mergeExisting: boolean, users: unknown[]): Promise<Outcome[]> {
    return (await this.json<{ results: Outcome[] }>('POST', '/admin/import/users', { source, mergeExisting, users }))
      .results;
  }

  progress(source: string, entries: unknown[]): Promise<Counts> {
    return this.json('POST', '/admin/import/progress', { source, entries });
  }

  wantToRead(source: string, entries: unknown[]): Promise<Counts> {
    return this.json('POST', '/admin/import/want-to-read', { source, entries });
  }

  async lists(source: string, lists: unknown[]): Promise<Outcome[]> {
    return (await this.json<{ results: Outcome[] }>('POST', '/admin/import/lists', { source, lists })).results;
  }

  async metadata(source: string, series: unknown[], books: unknown[]): Promise<Outcome[]> {
    return (await this.json<{ results: Outcome[] }>('POST', '/admin/import/metadata', { source, series, books }))
      .results;
  }

  async apiKeys(source: string, keys: unknown[]): Promise<Outcome[]> {
    return (await this.json<{ results: Outcome[] }>('POST', '/admin/import/api-keys', { source, keys })).results;
  }

  cover(query: { source: string; foreignId: string; kind: 'series' | 'book'; id: string }, image: Uint8Array) {
    const search = new URLSearchParams(query).toString();
    return this.json<Outcome>('POST', `/admin/import/covers?${search}`, undefined, image);
  }

  private async json<T>(method: string, path: string, json?: unknown, bytes?: Uint8Array): Promise<T> {
    const headers: Record<string, string> = { 'X-API-Key': this.apiKey, Accept: 'application/json' };
    let body: BodyInit | undefined;
    if (json !== undefined) {
      body = JSON.stringify(json);
      headers['Content-Type'] = 'application/json';
    } else if (bytes) {
      body = bytes as unknown as BodyInit;
      headers['Content-Type'] = 'application/octet-stream';
    }
    this.requests += 1;
    const response = await this.fetcher(`${this.apiBase}${path}`, { method, headers, body });
    const text = await response.text();
    if (!response.ok) {
      let message = text.slice(0, 300) || response.statusText;
      try {
        const envelope = JSON.parse(text) as { message?: string; details?: Array<{ path: string; message: string }> };
        message = envelope.message ?? message;
        if (envelope.details?.length)
          message += ` (${envelope.details.map((d) => `${d.path}: ${d.message}`).join('; ')})`;
      } catch {
        // Not the JSON envelope (a proxy's error page): the raw text.
      }
      throw new ApiError(response.status, `${response.status}: ${message}`);
    }
    return JSON.parse(text) as T;
  }
}
