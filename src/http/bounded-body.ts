/**
 * A request body read whole into memory, never past a bound: a declared length above it is refused before a
 * byte is read, and a body without one (chunked) is cut off the moment it passes the bound — the isolate's
 * memory is never spent on more than `maxBytes` (and, for a body of unknown length, a buffer that doubles up to
 * it). For uploads a service must see whole (a SQLite file is read by page number, not front to back).
 */
import { AppError, badRequest } from '../lib/errors';

const INITIAL_CHUNKED_BUFFER = 1024 * 1024;

export async function readBoundedBody(request: Request, maxBytes: number, what: string): Promise<Uint8Array> {
  const tooLarge = () =>
    new AppError('PayloadTooLarge', `${what} is larger than ${maxBytes / 1024 / 1024} MiB, the most Longbox reads`);
  const declaredHeader = request.headers.get('Content-Length');
  const declared = declaredHeader === null ? null : Number(declaredHeader);
  if (declared !== null && Number.isFinite(declared) && declared > maxBytes) throw tooLarge();
  const empty = () => badRequest(`${what} is empty: send the file as the request body`);
  if (!request.body) throw empty();
  const reader = request.body.getReader();
  let buffer = new Uint8Array(
    declared !== null && Number.isFinite(declared) && declared >= 0
      ? declared
      : Math.min(INITIAL_CHUNKED_BUFFER, maxBytes),
  );
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    if (size + value.byteLength > buffer.byteLength) {
      const grown = new Uint8Array(Math.min(maxBytes, Math.max(size + value.byteLength, buffer.byteLength * 2)));
      grown.set(buffer.subarray(0, size));
      buffer = grown;
    }
    buffer.set(value, size);
    size += value.byteLength;
  }
  if (size === 0) throw empty();
  return buffer.subarray(0, size);
}
