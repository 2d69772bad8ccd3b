/**
 * A tolerant multipart/form-data reader for small uploads (covers). The runtime's FormData parser refuses
 * what real clients send — Ktor (Komf) writes `name=file` unquoted, `filename=""` and no Content-Type — so
 * the parts are split here. The body is already bounded by the route's body limit.
 */
import { badRequest } from '../lib/errors';

export interface FormPart {
  name: string;
  filename: string | null;
  contentType: string | null;
  bytes: Uint8Array;
}

const decoder = new TextDecoder();

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0];
  outer: for (let i = haystack.indexOf(first as number, from); i !== -1; i = haystack.indexOf(first as number, i + 1)) {
    if (i + needle.length > haystack.length) return -1;
    for (let j = 1; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** `name=value` or `name="value"` of a header's parameters. */
function parameter(header: string, name: string): string | null {
  const match = new RegExp(`(?:^|;)\\s*${name}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;]*))`, 'i').exec(header);
  if (!match) return null;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : (match[2] ?? '').trim();
}

/** The parts of a multipart/form-data body; a 400 naming the problem when it is not one. */
export function parseMultipart(contentType: string | undefined, body: Uint8Array): FormPart[] {
  const boundary =
    contentType && /^multipart\/form-data/i.test(contentType) ? parameter(contentType, 'boundary') : null;
  if (!boundary) throw badRequest('Expected a multipart/form-data body');
  const delimiter = new TextEncoder().encode(`--${boundary}`);
  const parts: FormPart[] = [];
  let at = indexOf(body, delimiter, 0);
  while (at !== -1) {
    let start = at + delimiter.length;
    if (body[start] === 0x2d && body[start + 1] === 0x2d) break; // closing delimiter
    if (body[start] === 0x0d && body[start + 1] === 0x0a) start += 2;
    const next = indexOf(body, delimiter, start);
    if (next === -1) throw badRequest('The multipart body is truncated');
    const headerEnd = indexOf(body, new Uint8Array([0x0d, 0x0a, 0x0d, 0x0a]), start);
    if (headerEnd === -1 || headerEnd > next) throw badRequest('A multipart part has no headers');
    const headers = decoder.decode(body.subarray(start, headerEnd)).split('\r\n');
    const header = (name: string) =>
      headers
        .find((h) => h.toLowerCase().startsWith(`${name}:`))
        ?.slice(name.length + 1)
        .trim() ?? null;
    const disposition = header('content-disposition') ?? '';
    // The content ends before the CRLF that precedes the next delimiter.
    let end = next;
    if (body[end - 2] === 0x0d && body[end - 1] === 0x0a) end -= 2;
    parts.push({
      name: parameter(disposition, 'name') ?? '',
      filename: parameter(disposition, 'filename'),
      contentType: header('content-type'),
      bytes: body.subarray(headerEnd + 4, end),
    });
    at = next;
  }
  return parts;
}
