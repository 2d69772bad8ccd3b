/**
 * The API worker's RENDERER service binding (wrangler.toml [[services]]) reaches the renderer worker's
 * ImageRenderer entrypoint, and the client of src/media/image-renderer.ts turns its typed failures into
 * ImageRenderError → AppError. The renderer reads PDFs from the same LIBRARY bucket as the API worker.
 */
import { env } from 'cloudflare:test';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { createRendererClient, ImageRenderError, toAppError } from '../../src/media/image-renderer';

/** A 3×2 px PNG (red, green, blue / white, black, transparent), as base64 (made with sharp). */
const TINY_PNG = Uint8Array.from(
  atob(
    'iVBORw0KGgoAAAANSUhEUgAAAAMAAAACCAYAAACddGYaAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAG0lEQVQImR3IsQ0AAAzDIP5/2lUqNkRPqbLAAaB5CvZ4h84QAAAAAElFTkSuQmCC',
  ),
  (c) => c.charCodeAt(0),
);

const renderer = () => createRendererClient(env.RENDERER);

describe('RENDERER service binding (issue 4: native-image worker behind the API worker)', () => {
  it('probes and transforms an image through the binding', async () => {
    expect(await renderer().probe(TINY_PNG.slice().buffer)).toEqual({ width: 3, height: 2, mediaType: 'image/png' });
    const image = await renderer().transform(TINY_PNG.slice().buffer, 'image/png', { format: 'jpeg', width: 100 });
    expect(image).toMatchObject({ width: 3, height: 2, mediaType: 'image/jpeg' });
  });

  it('renders a page of a PDF stored through the API worker’s LIBRARY binding', async () => {
    const pdf = await PDFDocument.create();
    pdf.addPage([300, 600]);
    pdf.addPage([300, 600]);
    await env.LIBRARY.put('lib/book.pdf', await pdf.save());
    const page = await renderer().renderPdfPage({ key: 'lib/book.pdf', pageNumber: 2, height: 400, format: 'jpeg' });
    expect(page).toMatchObject({ width: 200, height: 400, pageCount: 2, mediaType: 'image/jpeg' });
  });

  it('throws ImageRenderError with the renderer’s code, mapped to the API error kinds', async () => {
    const failure = await renderer()
      .transform(new TextEncoder().encode('plain text').buffer as ArrayBuffer, 'image/jpeg', { format: 'jpeg' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ImageRenderError);
    expect(failure).toMatchObject({ code: 'unsupported_input' });
    expect(toAppError(failure as ImageRenderError).toBody()).toEqual({
      error: 'UnprocessableEntity',
      message: 'Not an image the renderer can read (it reads JPEG, PNG, WebP, GIF and Netpbm)',
      details: null,
    });
    const missing = await renderer()
      .renderPdfPage({ key: 'lib/none.pdf', pageNumber: 1, format: 'jpeg' })
      .catch((error: unknown) => error);
    expect(toAppError(missing as ImageRenderError).status).toBe(404);
  });
});
