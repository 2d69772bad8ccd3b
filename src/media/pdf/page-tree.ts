/**
 * The page tree walk (ISO 32000 §7.7.3): pages in reading order with their inherited /Resources,
 * /MediaBox, /CropBox and /Rotate. Kids are resolved a few at a time so a flat tree of thousands of
 * pages costs batched reads, and a tree that loops or lies about its size stops instead of hanging.
 */
import { BookAnalysisError } from '../errors';
import type { PdfDocument } from './document';
import { isName, isNumber, type PdfDict, type PdfValue, Ref } from './objects';
import { damaged } from './pdf-file';
import { mapLimited } from '../../lib/concurrency';

export interface PdfPage {
  dict: PdfDict;
  resources: PdfValue | undefined;
  /** [x0, y0, x1, y1] of the visible area (CropBox, else MediaBox; US Letter when neither is usable). */
  box: [number, number, number, number];
  rotate: number;
}

/** A book with more pages than this is hostile or broken. */
export const MAX_PAGES = 50_000;
const MAX_DEPTH = 64;
const CONCURRENCY = 16;
const LETTER: [number, number, number, number] = [0, 0, 612, 792];

interface Inherited {
  resources: PdfValue | undefined;
  mediaBox: PdfValue | undefined;
  cropBox: PdfValue | undefined;
  rotate: PdfValue | undefined;
}

async function box(doc: PdfDocument, value: PdfValue | undefined): Promise<[number, number, number, number] | null> {
  const resolved = await doc.resolve(value);
  if (!Array.isArray(resolved) || resolved.length < 4) return null;
  const numbers = await Promise.all(resolved.slice(0, 4).map((v) => doc.resolve(v)));
  if (!numbers.every(isNumber)) return null;
  const [a, b, c, d] = numbers as number[];
  const normalized: [number, number, number, number] = [
    Math.min(a!, c!),
    Math.min(b!, d!),
    Math.max(a!, c!),
    Math.max(b!, d!),
  ];
  return normalized[2] > normalized[0] && normalized[3] > normalized[1] ? normalized : null;
}

export async function listPages(doc: PdfDocument): Promise<PdfPage[]> {
  const catalog = await doc.dict(doc.trailer.get('Root'));
  if (!catalog) throw damaged('it has no document catalog');
  const visited = new Set<number>();
  let count = 0;

  async function walk(node: PdfValue | undefined, inherited: Inherited, depth: number): Promise<PdfPage[]> {
    if (depth > MAX_DEPTH) throw damaged('the page tree is too deep');
    if (node instanceof Ref) {
      if (visited.has(node.num)) return []; // a loop or a page listed twice
      visited.add(node.num);
    }
    const dict = await doc.dict(node);
    if (!dict) return [];
    const here: Inherited = {
      resources: dict.get('Resources') ?? inherited.resources,
      mediaBox: dict.get('MediaBox') ?? inherited.mediaBox,
      cropBox: dict.get('CropBox') ?? inherited.cropBox,
      rotate: dict.get('Rotate') ?? inherited.rotate,
    };
    const kids = await doc.resolve(dict.get('Kids'));
    if (isName(dict.get('Type'), 'Pages') || (!isName(dict.get('Type'), 'Page') && Array.isArray(kids))) {
      if (!Array.isArray(kids)) return [];
      const pages = await mapLimited(kids, CONCURRENCY, (kid) => walk(kid, here, depth + 1));
      return pages.flat();
    }
    if (++count > MAX_PAGES) {
      throw new BookAnalysisError('too_large', `The PDF has more than ${MAX_PAGES} pages; Longbox does not read it`);
    }
    const mediaBox = (await box(doc, here.mediaBox)) ?? LETTER;
    const cropBox = await box(doc, here.cropBox);
    const rotate = await doc.resolve(here.rotate);
    return [
      {
        dict,
        resources: here.resources,
        box: cropBox ?? mediaBox,
        rotate: isNumber(rotate) ? (((Math.round(rotate / 90) * 90) % 360) + 360) % 360 : 0,
      },
    ];
  }

  return walk(
    catalog.get('Pages'),
    { resources: undefined, mediaBox: undefined, cropBox: undefined, rotate: undefined },
    0,
  );
}
