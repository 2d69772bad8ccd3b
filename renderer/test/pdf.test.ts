/**
 * PDF pages through the renderer RPC (DECISIONS.md §Books: a PDF page that is not one embedded image is
 * rendered). PDFs are written with pdf-lib and stored in the renderer's LIBRARY bucket.
 */
import { env } from 'cloudflare:workers';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import type { RendererEnv } from '../src/env';
import { ascii, jpegPixels, ok, renderer } from './support/images';

const LIBRARY = (env as unknown as RendererEnv).LIBRARY;

/** Two A5 pages (420×595 pt): page 1 has a red block over its top-left quarter, page 2 is landscape. */
async function writePdf(key: string): Promise<void> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const first = pdf.addPage([420, 595]);
  first.drawRectangle({ x: 0, y: 595 / 2, width: 210, height: 595 / 2, color: rgb(1, 0, 0) });
  first.drawText('Longbox renders this page', { x: 40, y: 100, size: 18, font });
  pdf.addPage([595, 420]).drawText('Landscape', { x: 40, y: 40, size: 24, font });
  await LIBRARY.put(key, await pdf.save());
}

describe('renderPdfPage (DECISIONS.md §Books: PDF pages are rendered)', () => {
  it('renders a page at its natural size (longest side 2000 px) and reports the page count', async () => {
    await writePdf('books/a.pdf');
    const page = ok(await renderer.renderPdfPage({ key: 'books/a.pdf', pageNumber: 1, format: 'jpeg' }));
    expect(page).toMatchObject({ width: 1412, height: 2000, pageCount: 2, mediaType: 'image/jpeg' });
    const pixels = jpegPixels(page.bytes);
    const at = (x: number, y: number) => [
      ...pixels.data.subarray((y * pixels.width + x) * 3, (y * pixels.width + x) * 3 + 3),
    ];
    const [r, g, b] = at(200, 200); // inside the red block
    expect(r).toBeGreaterThan(230);
    expect(g! + b!).toBeLessThan(40);
    expect(Math.min(...at(1200, 1800))).toBeGreaterThan(240); // white paper
  });

  it('bounds the size with width/height and encodes WebP and PNG', async () => {
    await writePdf('books/b.pdf');
    const webp = ok(await renderer.renderPdfPage({ key: 'books/b.pdf', pageNumber: 2, width: 600, format: 'webp' }));
    expect(webp).toMatchObject({ width: 600, height: 424, mediaType: 'image/webp' });
    expect(ascii(webp.bytes, 8, 8)).toBe('WEBPVP8 ');
    const png = ok(await renderer.renderPdfPage({ key: 'books/b.pdf', pageNumber: 1, height: 300, format: 'png' }));
    expect(png).toMatchObject({ width: 212, height: 300, mediaType: 'image/png' });
    expect(ascii(png.bytes, 1, 3)).toBe('PNG');
    const capped = ok(await renderer.renderPdfPage({ key: 'books/b.pdf', pageNumber: 1, width: 8000, format: 'jpeg' }));
    expect(capped).toMatchObject({ width: 1412, height: 2000 });
  });

  it('answers typed errors for missing files, missing pages, damaged and oversized PDFs', async () => {
    await writePdf('books/c.pdf');
    expect(await renderer.renderPdfPage({ key: 'books/none.pdf', pageNumber: 1, format: 'jpeg' })).toMatchObject({
      ok: false,
      code: 'pdf_not_found',
    });
    const missingPage = await renderer.renderPdfPage({ key: 'books/c.pdf', pageNumber: 3, format: 'jpeg' });
    expect(missingPage).toMatchObject({ ok: false, code: 'pdf_page_out_of_range' });
    if (!missingPage.ok) expect(missingPage.message).toContain('has 2 pages');
    expect(await renderer.renderPdfPage({ key: 'books/c.pdf', pageNumber: 0, format: 'jpeg' })).toMatchObject({
      code: 'invalid_options',
    });

    await LIBRARY.put('books/broken.pdf', '%PDF-1.7\nthis is not a real PDF body\n%%EOF');
    expect(await renderer.renderPdfPage({ key: 'books/broken.pdf', pageNumber: 1, format: 'jpeg' })).toMatchObject({
      ok: false,
      code: 'corrupt_input',
    });

    await LIBRARY.put('books/huge.pdf', new Uint8Array(41 * 1024 * 1024));
    const huge = await renderer.renderPdfPage({ key: 'books/huge.pdf', pageNumber: 1, format: 'jpeg' });
    expect(huge).toMatchObject({ ok: false, code: 'too_large' });

    // The renderer still works after the failures.
    expect(
      ok(await renderer.renderPdfPage({ key: 'books/c.pdf', pageNumber: 2, width: 100, format: 'jpeg' })).width,
    ).toBe(100);
  });
});
