/**
 * One PDF page as an image. PDFium rasterises straight to the output size (vector content needs no
 * resize), on white, in RGBA byte order; the encoder reads the bitmap out of PDFium's heap.
 * Size: the page's natural size here is its longest side at MAX_PDF_RENDER_SIDE (2000 px, ~180 dpi for
 * A4/Letter); `width`/`height` bound it further, with the usual aspect and no-enlarging rules.
 */
import type { PdfPageRequest, RenderedPdfPage } from '../../../src/media/image-renderer';
import { invalidOption, RenderFailure } from '../errors';
import { prepareEncoder } from '../pipeline/encode';
import { fitSize } from '../pipeline/geometry';
import { checkTransformOptions, finish } from '../pipeline/transform';
import { withPdfDocument } from './pdfium';

export const MAX_PDF_RENDER_SIDE = 2000;
const FPDF_ANNOT = 0x01;
const FPDF_REVERSE_BYTE_ORDER = 0x10;
const WHITE = 0xffffffff;

export function naturalPageSize(widthPt: number, heightPt: number) {
  const scale = MAX_PDF_RENDER_SIDE / Math.max(widthPt, heightPt);
  return { width: Math.max(1, Math.round(widthPt * scale)), height: Math.max(1, Math.round(heightPt * scale)) };
}

export async function renderPdfPage(bucket: R2Bucket, request: PdfPageRequest): Promise<RenderedPdfPage> {
  checkTransformOptions(request);
  if (!Number.isInteger(request.pageNumber) || request.pageNumber < 1) {
    throw invalidOption('pageNumber must be a whole number from 1');
  }
  await prepareEncoder(request.format);
  return withPdfDocument(bucket, request.key, async ({ pdfium, memory, handle, pageCount }) => {
    if (request.pageNumber > pageCount) {
      throw new RenderFailure(
        'pdf_page_out_of_range',
        `The PDF has ${pageCount} pages; page ${request.pageNumber} does not exist`,
      );
    }
    const page = pdfium.FPDF_LoadPage(handle, request.pageNumber - 1);
    if (page === 0) throw new RenderFailure('corrupt_input', `Page ${request.pageNumber} of the PDF is damaged`);
    let bitmap = 0;
    try {
      const natural = naturalPageSize(pdfium.FPDF_GetPageWidthF(page), pdfium.FPDF_GetPageHeightF(page));
      const target = fitSize(natural, request);
      bitmap = pdfium.FPDFBitmap_Create(target.width, target.height, 1);
      if (bitmap === 0) throw new Error('PDFium could not allocate the page bitmap');
      pdfium.FPDFBitmap_FillRect(bitmap, 0, 0, target.width, target.height, WHITE);
      pdfium.FPDF_RenderPageBitmap(
        bitmap,
        page,
        0,
        0,
        target.width,
        target.height,
        0,
        FPDF_ANNOT | FPDF_REVERSE_BYTE_ORDER,
      );
      const stride = pdfium.FPDFBitmap_GetStride(bitmap);
      if (stride !== target.width * 4) throw new Error(`unexpected PDFium bitmap stride ${stride}`);
      const pixels = new Uint8Array(memory.buffer, pdfium.FPDFBitmap_GetBuffer(bitmap), stride * target.height);
      const image = finish({ ...target, channels: 4, data: pixels }, target, request);
      return { ...image, pageCount };
    } finally {
      if (bitmap !== 0) pdfium.FPDFBitmap_Destroy(bitmap);
      pdfium.FPDF_ClosePage(page);
    }
  });
}
