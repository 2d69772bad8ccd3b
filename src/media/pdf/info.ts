/**
 * The document information dictionary (/Info) → book metadata. PDF text strings are UTF-16BE with a
 * byte-order mark, UTF-8 with a BOM (PDF 2.0), or PDFDocEncoding (Latin-1 with typographic
 * characters in 0x18–0x1F and 0x80–0xA0).
 */
import { type BookMetadata, emptyMetadata } from '../container';
import type { PdfDocument } from './document';
import type { PdfValue } from './objects';

const PDF_DOC_LOW = '˘ˇˆ˙˝˛˚˜'; // 0x18–0x1F
const PDF_DOC_HIGH = '•†‡…—–ƒ⁄‹›−‰„“”‘’‚™ﬁﬂŁŒŠŸŽıłœšž\ufffd€'; // 0x80–0xA0

export function decodeTextString(bytes: Uint8Array): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    // UTF-16BE code units map straight onto a JS string (surrogate pairs included).
    let text = '';
    for (let i = 2; i + 1 < bytes.length; i += 2) text += String.fromCharCode((bytes[i]! << 8) | bytes[i + 1]!);
    return text;
  }
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return new TextDecoder('utf-8').decode(bytes.subarray(3));
  let text = '';
  for (const byte of bytes) {
    if (byte >= 0x18 && byte <= 0x1f) text += PDF_DOC_LOW[byte - 0x18];
    else if (byte >= 0x80 && byte <= 0xa0) text += PDF_DOC_HIGH[byte - 0x80];
    else text += String.fromCharCode(byte);
  }
  return text;
}

function text(value: PdfValue | undefined): string | null {
  if (!(value instanceof Uint8Array)) return null;
  // Drop control characters some producers leave in (NULs from fixed-size fields); keep tabs and newlines.
  const decoded = Array.from(decodeTextString(value))
    .filter((c) => c >= ' ' || c === '\t' || c === '\n' || c === '\r')
    .join('')
    .trim();
  return decoded === '' ? null : decoded;
}

const list = (value: string | null, separators: RegExp) =>
  value
    ? [
        ...new Set(
          value
            .split(separators)
            .map((item) => item.trim())
            .filter(Boolean),
        ),
      ]
    : [];

export async function readInfo(doc: PdfDocument): Promise<BookMetadata> {
  const metadata = emptyMetadata();
  const info = await doc.dict(doc.trailer.get('Info')).catch(() => null);
  if (!info) return metadata;
  const field = async (key: string) => text(await doc.resolve(info.get(key)).catch(() => undefined));
  const [title, author, subject, keywords, created] = await Promise.all(
    ['Title', 'Author', 'Subject', 'Keywords', 'CreationDate'].map(field),
  );
  const year = created?.match(/^(?:D:)?(\d{4})/)?.[1];
  return {
    ...metadata,
    title: title ?? null,
    summary: subject ?? null,
    // "Doe, John" is one person; several people are separated by semicolons or "&".
    authors: list(author ?? null, /;|&/).map((name) => ({ name, role: 'writer' })),
    tags: list(keywords ?? null, /[,;]/),
    year: year && Number(year) >= 1000 ? Number(year) : null,
  };
}
