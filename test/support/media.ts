/**
 * Binary responses for the media tests (pages, files, thumbnails): the raw bytes and headers of a
 * request into the worker, what kind of image some bytes are, and how big.
 */
import { SELF } from 'cloudflare:test';
import { parseImageHeader } from '../../src/media/image-header';
import { api, authHeaders, type Credentials } from './http';

export interface RawResponse {
  status: number;
  headers: Headers;
  bytes: Uint8Array;
  /** The body as JSON when it is an error envelope. */
  json: any;
}

export async function fetchRaw(
  path: string,
  options: { auth?: Credentials; headers?: Record<string, string>; method?: string } = {},
): Promise<RawResponse> {
  const response = await SELF.fetch(`http://longbox.test/api/v1${path}`, {
    method: options.method ?? 'GET',
    headers: { ...authHeaders(options.auth), ...options.headers },
  });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const isJson = response.headers.get('Content-Type')?.includes('json');
  return {
    status: response.status,
    headers: response.headers,
    bytes,
    json: isJson && bytes.length ? JSON.parse(new TextDecoder().decode(bytes)) : null,
  };
}

/** The image kind by its signature (the bytes decide, not the Content-Type). */
export function imageKind(bytes: Uint8Array): 'jpeg' | 'png' | 'webp' | 'svg' | 'unknown' {
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'jpeg';
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'png';
  const text = new TextDecoder().decode(bytes.subarray(0, 64));
  if (text.startsWith('RIFF') && text.slice(8, 12) === 'WEBP') return 'webp';
  if (text.startsWith('<svg')) return 'svg';
  return 'unknown';
}

export function imageSize(bytes: Uint8Array): { width: number; height: number } {
  const size = parseImageHeader(bytes);
  if (!size || size === 'need-more') throw new Error(`not a complete image header (${imageKind(bytes)})`);
  return { width: size.width, height: size.height };
}

/** The books of a library, by file name. */
export async function booksByFileName(auth: Credentials, libraryId: string): Promise<Record<string, any>> {
  const listed = await api(`/books?library_id=${libraryId}&pageSize=500`, { auth });
  if (listed.status !== 200) throw new Error(`GET /books failed: ${listed.status} ${listed.text}`);
  return Object.fromEntries(listed.body.data.map((b: { path: string }) => [b.path.split('/').pop(), b]));
}

export const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);
