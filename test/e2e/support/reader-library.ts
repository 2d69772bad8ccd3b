/**
 * A library for the reader's browser tests: a comic series of two books (one page of the first is a wide
 * two-page scan, pages large enough that the reader asks the server for smaller copies) and a reflowable
 * EPUB novel, uploaded and scanned through the API.
 */
import sharp from 'sharp';
import { buildEpub } from '../../fixtures/epub-writer';
import { buildZip } from '../../fixtures/zip-writer';
import { call, createLibrary, scanAndWait, uploadBook } from './api';

/** Page size of the comic fixtures: portrait 1200×1800; page 5 of book 1 is a 2400×1800 spread. */
export const PAGE = { width: 1200, height: 1800 };
export const WIDE_PAGE_NUMBER = 5;
export const BOOK1_PAGES = 8;
export const BOOK2_PAGES = 3;

export interface ReaderLibrary {
  libraryId: string;
  book1: { id: string; seriesId: string; title: string };
  book2: { id: string; title: string };
  novel: { id: string; title: string };
}

/** Seven-segment digits (segments a–g), drawn as rectangles so no font is needed. */
const SEGMENTS: Record<string, string> = {
  '0': 'abcdef',
  '1': 'bc',
  '2': 'abdeg',
  '3': 'abcdg',
  '4': 'bcfg',
  '5': 'acdfg',
  '6': 'acdefg',
  '7': 'abc',
  '8': 'abcdefg',
  '9': 'abcdfg',
};

function digitRects(digit: string, x: number, y: number, size: number): string {
  const t = size / 5;
  const w = size;
  const h = size * 2;
  const boxes: Record<string, [number, number, number, number]> = {
    a: [t, 0, w - 2 * t, t],
    b: [w - t, t, t, h / 2 - t],
    c: [w - t, h / 2, t, h / 2 - t],
    d: [t, h - t, w - 2 * t, t],
    e: [0, h / 2, t, h / 2 - t],
    f: [0, t, t, h / 2 - t],
    g: [t, h / 2 - t / 2, w - 2 * t, t],
  };
  return [...(SEGMENTS[digit] ?? '')]
    .map((segment) => {
      const [bx, by, bw, bh] = boxes[segment]!;
      return `<rect x="${x + bx}" y="${y + by}" width="${bw}" height="${bh}" fill="#1b1e26"/>`;
    })
    .join('');
}

/**
 * A comic-like page: coloured panels and the page number in large digits, so screenshots show which page
 * is where (a two-page spread has a panel across both halves).
 */
async function pageImage(book: number, page: number, width: number, height: number): Promise<Uint8Array> {
  const hue = (book * 97 + page * 41) % 360;
  const margin = width / 24;
  const gutter = width / 40;
  const panelHeight = (height - 2 * margin - 2 * gutter) / 3;
  const panels = [0, 1, 2]
    .map((row) => {
      const y = margin + row * (panelHeight + gutter);
      return `<rect x="${margin}" y="${y}" width="${width - 2 * margin}" height="${panelHeight}" fill="hsl(${(hue + row * 30) % 360} 55% 78%)" stroke="#1b1e26" stroke-width="${width / 200}"/>`;
    })
    .join('');
  const digits = String(page);
  const size = Math.min(width, height) / 4;
  const startX = (width - digits.length * size * 1.3) / 2;
  const number = [...digits].map((d, i) => digitRects(d, startX + i * size * 1.3, height / 2 - size, size)).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fdfbf5"/>${panels}${number}</svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer());
}

async function comic(book: number, pages: number, wide: number[] = []): Promise<Uint8Array> {
  const files = [];
  for (let page = 1; page <= pages; page++) {
    const width = wide.includes(page) ? PAGE.width * 2 : PAGE.width;
    files.push({
      name: `page-${String(page).padStart(3, '0')}.jpg`,
      data: await pageImage(book, page, width, PAGE.height),
    });
  }
  return buildZip(files);
}

export async function createReaderLibrary(baseUrl: string, token: string): Promise<ReaderLibrary> {
  const library = await createLibrary(baseUrl, token, 'Reader');
  await uploadBook(baseUrl, token, library.id, 'Saga/Saga 01.cbz', await comic(1, BOOK1_PAGES, [WIDE_PAGE_NUMBER]));
  await uploadBook(baseUrl, token, library.id, 'Saga/Saga 02.cbz', await comic(2, BOOK2_PAGES));
  const spine = Array.from({ length: 8 }, () => ({ kind: 'text' as const, bytes: 12_000 }));
  await uploadBook(baseUrl, token, library.id, 'Novel/Novel.epub', buildEpub({ spine }));
  await scanAndWait(baseUrl, token, library.id);
  const books = await call(baseUrl, 'GET', '/books', { token, query: { library_id: library.id, pageSize: '50' } });
  const find = (name: string) => {
    const book = books.data.find((b: { path: string }) => b.path.endsWith(name));
    if (!book) throw new Error(`${name} was not scanned: ${JSON.stringify(books.data.map((b: any) => b.path))}`);
    return book;
  };
  const book1 = find('Saga 01.cbz');
  await waitForPageSizes(baseUrl, token, book1.id);
  const book2 = find('Saga 02.cbz');
  const novel = find('Novel.epub');
  return {
    libraryId: library.id,
    book1: { id: book1.id, seriesId: book1.seriesId, title: book1.title },
    book2: { id: book2.id, title: book2.title },
    novel: { id: novel.id, title: novel.title },
  };
}

/** Page dimensions arrive with analysis, which may finish after the scan: the layout needs them. */
async function waitForPageSizes(baseUrl: string, token: string, bookId: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const pages = await call(baseUrl, 'GET', `/books/${bookId}/pages`, { token });
    if (pages.length > 0 && pages.every((p: { width: number | null }) => p.width !== null)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`book ${bookId} was not analyzed within ${timeoutMs} ms`);
}
