/**
 * A small uploaded document (a ComicRack reading list): sent as the `file` field of a multipart form (as
 * Komga's web UI sends it) or as the raw request body. Read whole — these are at most a few MiB, never books —
 * after checking the declared and the actual size.
 */
import type { Context } from 'hono';
import { AppError, badRequest } from '../lib/errors';

export async function readUploadedFile(c: Context, maxBytes: number, field = 'file'): Promise<Uint8Array> {
  const declared = Number(c.req.header('Content-Length') ?? '0');
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const type = c.req.header('Content-Type') ?? '';
  let bytes: Uint8Array;
  if (type.startsWith('multipart/form-data')) {
    const form = await c.req.parseBody().catch(() => {
      throw badRequest('The multipart form could not be read');
    });
    const part = form[field];
    if (!(part instanceof File)) {
      throw badRequest(`The form has no file in its "${field}" field`, [{ path: field, message: 'required' }]);
    }
    bytes = new Uint8Array(await part.arrayBuffer());
  } else {
    bytes = new Uint8Array(await c.req.arrayBuffer());
  }
  if (bytes.byteLength > maxBytes) throw tooLarge(maxBytes);
  if (bytes.byteLength === 0) throw badRequest('The file is empty', [{ path: field, message: 'empty' }]);
  return bytes;
}

const tooLarge = (maxBytes: number) => new AppError('PayloadTooLarge', `The file exceeds ${maxBytes} bytes`);
