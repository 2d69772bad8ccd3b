/**
 * A small library that looks like one, for screenshots and browser tests: a few series with coloured,
 * titled covers (drawn with sharp), books in progress and finished, all uploaded and scanned through the
 * API of a running server.
 */
import sharp from 'sharp';
import { buildZip } from '../../fixtures/zip-writer';
import { ADMIN, call, createLibrary, scanAndWait, setupAdmin, uploadBook } from './api';

export interface Showcase {
  token: string;
  libraryId: string;
  /** By title. */
  series: Record<string, { id: string }>;
  books: Record<string, { id: string; seriesId: string; pageCount: number }>;
}

const SERIES = [
  { title: 'Harbor Lights', color: '#1d4e89', books: 3, pages: 8 },
  { title: 'Iron Meadow', color: '#7a2e2e', books: 2, pages: 6 },
  { title: 'Paper Comets', color: '#2e7a4f', books: 4, pages: 5 },
  { title: 'Quiet Engines', color: '#6b4c9a', books: 1, pages: 12 },
  { title: 'Salt & Signal', color: '#b3641b', books: 2, pages: 7 },
  { title: 'Wandering Kites', color: '#1b8a8f', books: 3, pages: 6 },
];

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A 800×1200 page: the cover carries the title and number, inner pages a panel grid and page number. */
export async function drawPage(title: string, number: number, page: number, color: string, width = 800, height = 1200) {
  const cover = page === 1;
  const panels = cover
    ? ''
    : [0, 1, 2]
        .map(
          (row) =>
            `<rect x="40" y="${60 + row * 370}" width="${width - 80}" height="340" rx="12" fill="#fff" stroke="#222" stroke-width="6"/>`,
        )
        .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="${cover ? color : '#f4f1ea'}"/>
    ${panels}
    ${
      cover
        ? `<text x="50%" y="42%" font-family="DejaVu Sans, sans-serif" font-size="72" font-weight="700" fill="#fff" text-anchor="middle">${escapeXml(title)}</text>
           <text x="50%" y="56%" font-family="DejaVu Sans, sans-serif" font-size="120" font-weight="700" fill="#fff" text-anchor="middle">#${number}</text>`
        : `<text x="50%" y="${height - 20}" font-family="DejaVu Sans, sans-serif" font-size="36" fill="#444" text-anchor="middle">${page}</text>`
    }
  </svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).jpeg({ quality: 70 }).toBuffer());
}

export async function comicWithCovers(title: string, number: number, pages: number, color: string) {
  const files = [];
  for (let page = 1; page <= pages; page++) {
    files.push({ name: `${String(page).padStart(3, '0')}.jpg`, data: await drawPage(title, number, page, color) });
  }
  return buildZip(files);
}

export async function seedShowcase(baseUrl: string): Promise<Showcase> {
  const { token } = await setupAdmin(baseUrl);
  const library = await createLibrary(baseUrl, token, 'Comics', 'comics');
  for (const series of SERIES) {
    for (let number = 1; number <= series.books; number++) {
      const bytes = await comicWithCovers(series.title, number, series.pages, series.color);
      await uploadBook(
        baseUrl,
        token,
        library.id,
        `${series.title}/${series.title} ${String(number).padStart(3, '0')}.cbz`,
        bytes,
      );
    }
  }
  await scanAndWait(baseUrl, token, library.id);
  const showcase: Showcase = { token, libraryId: library.id, series: {}, books: {} };
  const seriesPage = await call(baseUrl, 'GET', '/series', { token, query: { pageSize: '100' } });
  for (const series of seriesPage.data) showcase.series[series.title] = { id: series.id };
  const bookPage = await call(baseUrl, 'GET', '/books', { token, query: { pageSize: '100' } });
  for (const book of bookPage.data) {
    showcase.books[book.title] = { id: book.id, seriesId: book.seriesId, pageCount: book.pageCount };
  }
  return showcase;
}

/** Reading state for the home rows: one book half read, a series started and its first book finished. */
export async function readSome(baseUrl: string, showcase: Showcase): Promise<void> {
  const { token, books } = showcase;
  const inProgress = books['Harbor Lights 001'];
  if (inProgress) await call(baseUrl, 'PUT', `/books/${inProgress.id}/progress`, { token, json: { current_page: 4 } });
  const finished = books['Paper Comets 001'];
  if (finished) await call(baseUrl, 'POST', `/books/${finished.id}/read`, { token });
}

export { ADMIN };

/** Lists for the screenshots: a collection, a smart collection pinned to home, a read list across series. */
export async function seedLists(baseUrl: string, showcase: Showcase): Promise<{ readListId: string }> {
  const { token, series, books } = showcase;
  const ids = (titles: string[], from: Record<string, { id: string }>) =>
    titles.map((title) => from[title]?.id).filter((id): id is string => id !== undefined);
  await call(baseUrl, 'POST', '/collections', {
    token,
    json: {
      name: 'Sea stories',
      ordered: true,
      seriesIds: ids(['Harbor Lights', 'Salt & Signal', 'Wandering Kites'], series),
    },
  });
  await call(baseUrl, 'POST', '/collections', {
    token,
    json: { name: 'Unread', condition: { readStatus: { operator: 'is', value: 'unread' } }, pinnedToHome: true },
  });
  const readList = await call(baseUrl, 'POST', '/readlists', {
    token,
    json: {
      name: 'The long voyage',
      summary: 'Harbor Lights and Salt & Signal, in story order.',
      bookIds: ids(
        ['Harbor Lights 001', 'Salt & Signal 001', 'Harbor Lights 002', 'Salt & Signal 002', 'Harbor Lights 003'],
        books,
      ),
    },
  });
  return { readListId: readList.id };
}
