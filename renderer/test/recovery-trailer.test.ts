/**
 * The rebuilt cross-reference section PDFium gets for a PDF it refuses (DECISIONS.md §Books, repair):
 * every `N G obj` header at its real offset, the last definition of a number winning, the catalog as
 * /Root; nothing when the file has no catalog. Pages of such files are rendered in
 * test/api/real-world-files.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { recoveryTrailer } from '../src/pdf/recovery-trailer';

const encode = (text: string) => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array | null) => (bytes ? new TextDecoder().decode(bytes) : null);

describe('recovery trailer', () => {
  it('lists every object at its offset and names the catalog as /Root', () => {
    const body =
      '%PDF-1.4\n1 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n' +
      '7 0 obj<</Type/Catalog/Pages 1 0 R>>\nendobj\n' +
      '1 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n';
    const bytes = encode(body);
    const lastPages = body.lastIndexOf('1 0 obj');
    const catalog = body.indexOf('7 0 obj');
    const trailer = decode(recoveryTrailer(bytes))!;
    const xrefAt = bytes.length + 1;
    expect(trailer).toBe(
      `\nxref\n0 1\n0000000000 65535 f \n1 1\n${String(lastPages).padStart(10, '0')} 00000 n \n` +
        `7 1\n${String(catalog).padStart(10, '0')} 00000 n \ntrailer\n<< /Size 8 /Root 7 0 R >>\n` +
        `startxref\n${xrefAt}\n%%EOF\n`,
    );
    // Each entry is the 20 bytes the xref format requires.
    for (const line of trailer.split('\n').filter((l) => / [nf] $/.test(l))) expect(line.length + 1).toBe(20);
  });

  it('gives nothing for a file without a catalog, and ignores "obj" inside other words', () => {
    expect(recoveryTrailer(encode('%PDF-1.4\n1 0 obj\n<< /Type /Pages >>\nendobj\nobjects 2 0 object\n'))).toBeNull();
    expect(recoveryTrailer(encode(''))).toBeNull();
  });
});
