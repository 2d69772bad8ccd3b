/**
 * Is a PDF page exactly one JPEG drawn over the whole page (a scanned comic)? Then its /DCTDecode
 * stream is a complete JPEG file and the page is served byte-identical with one range read.
 * Anything else (text, vector art, several images, masks, inverted decodes) is left to the renderer.
 */
import type { PdfDocument } from './document';
import { isName, isNumber, Keyword, Lexer, Name, type PdfValue, Ref } from './objects';
import type { PdfPage } from './page-tree';

export interface PageImage {
  offset: number;
  length: number;
  width: number;
  height: number;
}

/** A scanned page's content stream is a line or two; a bigger one draws more than one image. */
const MAX_CONTENT = 16 * 1024;
/** Graphics-state operators that do not draw anything. */
const HARMLESS = new Set(['q', 'Q', 'cm', 'gs', 'w', 'J', 'j', 'M', 'd', 'ri', 'i']);

type Matrix = [number, number, number, number, number, number];
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];
const multiply = (m: Matrix, n: Matrix): Matrix => [
  m[0] * n[0] + m[1] * n[2],
  m[0] * n[1] + m[1] * n[3],
  m[2] * n[0] + m[3] * n[2],
  m[2] * n[1] + m[3] * n[3],
  m[4] * n[0] + m[5] * n[2] + n[4],
  m[4] * n[1] + m[5] * n[3] + n[5],
];

/** The one XObject name drawn by the content and the transformation it is drawn with, or null. */
function singleDraw(content: Uint8Array): { name: string; matrix: Matrix } | null {
  const lexer = new Lexer(content, 0, true);
  const stack: Matrix[] = [];
  let ctm = IDENTITY;
  let operands: PdfValue[] = [];
  let drawn: { name: string; matrix: Matrix } | null = null;
  while (true) {
    lexer.skipWhitespace();
    if (lexer.pos >= content.length) return drawn;
    const token = lexer.next();
    if (!(token instanceof Keyword)) {
      operands.push(token);
      continue;
    }
    const op = token.word;
    if (op === 'Do') {
      const name = operands[0];
      if (drawn || !(name instanceof Name)) return null;
      drawn = { name: name.name, matrix: ctm };
    } else if (!HARMLESS.has(op)) return null;
    else if (op === 'q') stack.push(ctm);
    else if (op === 'Q') ctm = stack.pop() ?? IDENTITY;
    else if (op === 'cm') {
      if (operands.length !== 6 || !operands.every(isNumber)) return null;
      ctm = multiply(operands as Matrix, ctm);
    }
    operands = [];
  }
}

/** The image's unit square under `m` covers the page box, within 1% (and 2 points) on every edge. */
function coversPage(m: Matrix, box: [number, number, number, number]): boolean {
  const xs = [m[4], m[0] + m[4], m[2] + m[4], m[0] + m[2] + m[4]];
  const ys = [m[5], m[1] + m[5], m[3] + m[5], m[1] + m[3] + m[5]];
  // Upright only: a rotated or mirrored drawing would not look like the JPEG served as is.
  if (!(m[0] > 0 && m[3] > 0 && Math.abs(m[1]) < 1e-6 && Math.abs(m[2]) < 1e-6)) return false;
  const tolerance = (size: number) => Math.max(2, size * 0.01);
  const tx = tolerance(box[2] - box[0]);
  const ty = tolerance(box[3] - box[1]);
  return (
    Math.abs(Math.min(...xs) - box[0]) <= tx &&
    Math.abs(Math.max(...xs) - box[2]) <= tx &&
    Math.abs(Math.min(...ys) - box[1]) <= ty &&
    Math.abs(Math.max(...ys) - box[3]) <= ty
  );
}

async function contentOf(doc: PdfDocument, page: PdfPage): Promise<Uint8Array | null> {
  const contents = await doc.resolve(page.dict.get('Contents'));
  const parts = Array.isArray(contents) ? contents : [page.dict.get('Contents')];
  const decoded: Uint8Array[] = [];
  let total = 0;
  for (const part of parts) {
    const location = await doc.stream(part);
    if (!location || location.length > MAX_CONTENT) return null;
    const data = await doc.streamData(part, MAX_CONTENT * 8);
    decoded.push(data, Uint8Array.of(0x0a));
    total += data.length + 1;
  }
  const joined = new Uint8Array(total);
  let at = 0;
  for (const part of decoded) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

function isJpegOnly(filter: PdfValue | undefined): boolean {
  if (isName(filter, 'DCTDecode') || isName(filter, 'DCT')) return true;
  return Array.isArray(filter) && filter.length === 1 && (isName(filter[0], 'DCTDecode') || isName(filter[0], 'DCT'));
}

async function endsWithEndstream(doc: PdfDocument, end: number): Promise<boolean> {
  const tail = new TextDecoder().decode(await doc.file.bytes(end, 24));
  return /^\s*endstream/.test(tail);
}

export async function singleJpegOf(doc: PdfDocument, page: PdfPage): Promise<PageImage | null> {
  if (page.rotate !== 0) return null;
  const resources = await doc.dict(page.resources);
  const xobjects = await doc.dict(resources?.get('XObject'));
  if (!xobjects || xobjects.size === 0) return null;
  const content = await contentOf(doc, page);
  const draw = content ? singleDraw(content) : null;
  if (!draw || !coversPage(draw.matrix, page.box)) return null;
  const ref = xobjects.get(draw.name);
  if (!(ref instanceof Ref)) return null;
  const image = await doc.stream(ref);
  if (!image) return null;
  const { dict } = image;
  const width = await doc.resolve(dict.get('Width'));
  const height = await doc.resolve(dict.get('Height'));
  if (
    !isName(dict.get('Subtype'), 'Image') ||
    !isJpegOnly(await doc.resolve(dict.get('Filter'))) ||
    ['SMask', 'Mask', 'Decode'].some((key) => dict.has(key)) ||
    dict.get('ImageMask') === true ||
    !isNumber(width) ||
    !isNumber(height)
  ) {
    return null;
  }
  // The stream must really be a whole JPEG: SOI at the start and `endstream` right after /Length.
  const head = await doc.file.bytes(image.start, 3);
  if (head[0] !== 0xff || head[1] !== 0xd8 || head[2] !== 0xff) return null;
  if (!(await endsWithEndstream(doc, image.start + image.length))) return null;
  return { offset: image.start, length: image.length, width, height };
}
