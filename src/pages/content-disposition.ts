/**
 * `Content-Disposition` for a book download (RFC 6266): an ASCII `filename` for old clients and the exact
 * UTF-8 name in `filename*` (RFC 8187). Only the last path segment is used, and characters that could
 * break the header or a file system are replaced: a name comes from the book's file or from inside it, so
 * it may hold quotes, semicolons, line breaks or a path meant to climb out of a download folder.
 */

/** attr-char of RFC 8187: everything else is percent-encoded. */
const ATTR_CHAR = /[A-Za-z0-9!#$&+.^_`|~-]/;

function encodeRfc8187(value: string): string {
  let out = '';
  for (const byte of new TextEncoder().encode(value)) {
    const char = String.fromCharCode(byte);
    out += byte < 0x80 && ATTR_CHAR.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function safeName(fileName: string): string {
  const base = fileName.split('/').pop() || 'book';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  return base.replace(/[\u0000-\u001f\u007f\\/]/g, '_');
}

export function attachmentDisposition(fileName: string): string {
  const safe = safeName(fileName);
  const ascii = safe
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]|["%;]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeRfc8187(safe)}`;
}

/**
 * A resource shown in place (an EPUB's chapter or image on `/komga`), in Komga's shape: the encoded name
 * alone (`CommonBookController.getBookEpubResource`).
 */
export function inlineDisposition(fileName: string): string {
  return `inline; filename*=UTF-8''${encodeRfc8187(safeName(fileName))}`;
}
