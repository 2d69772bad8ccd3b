/**
 * Issue 13 through HTTP: a library as real users have them — PDFs with damaged cross-references,
 * comics named .zip/.rar or with the wrong extension, and files Longbox does not read, which the scan
 * reports with the reason (DECISIONS.md §Books).
 */
import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { buildEpub } from '../fixtures/epub-writer';
import { jpeg } from '../fixtures/images';
import { buildPdf } from '../fixtures/pdf-writer';
import { writeRar5 } from '../fixtures/rar-writer';
import { setupAdmin } from '../support/factories';
import { api, authHeaders, type Credentials } from '../support/http';
import { makeCbz, pngPage, putObject } from '../support/library-files';
import { booksByFileName, fetchRaw, imageKind, sameBytes } from '../support/media';
import { createLibrary, scan } from '../support/scans';

const scans = [jpeg(200, 300, { seed: 1 }), jpeg(240, 300, { seed: 2 })];
const pdfPages = [
  { kind: 'jpeg' as const, image: scans[0]!, width: 200, height: 300 },
  { kind: 'text' as const, text: 'Chapter one' },
  { kind: 'jpeg' as const, image: scans[1]!, width: 240, height: 300 },
];

describe('damaged PDFs are repaired, analysed and served (DECISIONS.md §Books)', () => {
  it('reads PDFs with shifted xref offsets, no xref and a broken xref stream, and serves their pages', async () => {
    const { auth } = await setupAdmin();
    const libraryId = await createLibrary(auth);
    for (const damage of ['shifted-offsets', 'no-xref', 'broken-xref-stream'] as const) {
      await putObject(`comics/Damaged/${damage}.pdf`, buildPdf(pdfPages, { damage }));
    }
    const result = await scan(auth, libraryId);
    expect(result).toMatchObject({ status: 'completed', booksAdded: 3, errors: 0 });
    const books = await booksByFileName(auth, libraryId);
    for (const damage of ['shifted-offsets', 'no-xref', 'broken-xref-stream']) {
      const book = books[`${damage}.pdf`];
      expect(book, damage).toMatchObject({ fileFormat: 'pdf', pageCount: 3, analysisError: null });
      for (const [number, image] of [
        [1, scans[0]!],
        [3, scans[1]!],
      ] as const) {
        const page = await fetchRaw(`/books/${book.id}/pages/${number}`, { auth });
        expect([damage, number, page.status, page.json]).toEqual([damage, number, 200, null]);
        expect(sameBytes(page.bytes, image), `${damage} page ${number}`).toBe(true);
      }
    }
    // The text page is rendered by PDFium: it repairs a wrong xref itself, and a file with no xref or
    // trailer at all is handed to it with a rebuilt cross-reference section appended in memory.
    for (const damage of ['shifted-offsets', 'no-xref', 'broken-xref-stream']) {
      const rendered = await fetchRaw(`/books/${books[`${damage}.pdf`].id}/pages/2`, { auth });
      expect.soft([damage, rendered.status, imageKind(rendered.bytes)]).toEqual([damage, 200, 'png']);
    }
  });

  it('gives a PDF with no readable page tree a plain-words analysisError, and the scan goes on', async () => {
    const { auth } = await setupAdmin();
    const libraryId = await createLibrary(auth);
    const whole = buildPdf(pdfPages);
    await putObject('comics/Damaged/cut.pdf', whole.subarray(0, Math.floor(whole.length / 2)));
    await putObject('comics/Damaged/whole.pdf', whole);
    expect(await scan(auth, libraryId)).toMatchObject({ status: 'completed', booksAdded: 2, errors: 1 });
    const books = await booksByFileName(auth, libraryId);
    expect(books['cut.pdf'].analysisError).toBe(
      'The PDF is damaged: no readable page tree was found (is it truncated?)',
    );
    expect(books['whole.pdf']).toMatchObject({ analysisError: null, pageCount: 3 });
  });
});

describe('comics are read by content, not by name (DECISIONS.md §Books)', () => {
  it('reads .zip and .rar comics, a .zip that is an EPUB and a .cbz that is really RAR', async () => {
    const { auth } = await setupAdmin();
    const libraryId = await createLibrary(auth);
    const png = await pngPage(60, 90, [10, 90, 160]);
    const rar = writeRar5([
      { name: '1.png', data: png },
      { name: '2.png', data: png },
    ]);
    const epub = buildEpub({ spine: [{ kind: 'image', image: scans[0]! }], fixedLayout: true });
    await putObject('comics/Mixed/zipped.zip', await makeCbz(2));
    await putObject('comics/Mixed/rarred.rar', rar);
    await putObject('comics/Mixed/book.zip', epub);
    await putObject('comics/Mixed/really-rar.cbz', rar);
    expect(await scan(auth, libraryId)).toMatchObject({ status: 'completed', booksAdded: 4, errors: 0 });
    const books = await booksByFileName(auth, libraryId);
    expect(books['zipped.zip']).toMatchObject({ fileFormat: 'cbz', pageCount: 2, analysisError: null });
    expect(books['rarred.rar']).toMatchObject({ fileFormat: 'cbr', pageCount: 2, analysisError: null });
    expect(books['book.zip']).toMatchObject({ fileFormat: 'epub', pageCount: 1, analysisError: null });
    expect(books['really-rar.cbz']).toMatchObject({ fileFormat: 'cbr', pageCount: 2, analysisError: null });
    for (const name of ['rarred.rar', 'really-rar.cbz']) {
      const page = await fetchRaw(`/books/${books[name].id}/pages/2`, { auth });
      expect(page.status, name).toBe(200);
      expect(sameBytes(page.bytes, png), name).toBe(true);
    }
    const epubPage = await fetchRaw(`/books/${books['book.zip'].id}/pages/1`, { auth });
    expect(sameBytes(epubPage.bytes, scans[0]!)).toBe(true);
  });
});

/** The data of scan_progress frames on /scans/stream until one says the scan completed. */
async function completedScanFrame(auth: Credentials, start: () => Promise<unknown>): Promise<any> {
  const controller = new AbortController();
  const response = await SELF.fetch('http://longbox.test/api/v1/scans/stream', {
    headers: authHeaders(auth),
    signal: controller.signal,
  });
  const reader = (response.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
  await start();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error('stream ended');
      buffer += value;
      for (const frame of buffer.split('\n\n')) {
        const data = frame.split('\n').find((line) => line.startsWith('data: '));
        if (!frame.includes('event: scan_progress') || !data) continue;
        const parsed = JSON.parse(data.slice(6));
        if (parsed.status === 'completed') return parsed;
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
    controller.abort();
  }
}

describe('files a scan does not read are counted with the reason (DECISIONS.md §Books)', () => {
  it('reports them in scan-status, the scan_library task result and the scan stream', async () => {
    const { auth } = await setupAdmin();
    const libraryId = await createLibrary(auth);
    await putObject('comics/Saga/1.cbz', await makeCbz(1));
    for (const name of ['2.cb7', '3.cb7', '4.CB7']) await putObject(`comics/Saga/${name}`, '7z\xbc\xaf\x27\x1c');
    await putObject('comics/Saga/5.mobi', 'BOOKMOBI');
    await putObject('comics/Saga/notes.txt', 'not a book');
    await putObject('comics/Saga/empty.cbz', '');
    await putObject('comics/Saga/.DS_Store', 'x');
    await env.LIBRARY.put('comics/Saga/', ''); // a folder marker some S3 tools write: not a file

    const frame = await completedScanFrame(auth, () => api(`/libraries/${libraryId}/scan`, { method: 'POST', auth }));
    const status = await api(`/libraries/${libraryId}/scan-status`, { auth });
    const skipped = [
      {
        extension: '.cb7',
        reason: '7z is not supported, repack as CBZ',
        count: 3,
        message: '3 .cb7 files skipped: 7z is not supported, repack as CBZ',
      },
      {
        extension: '.mobi',
        reason: 'MOBI is not supported, convert it to EPUB',
        count: 1,
        message: '1 .mobi file skipped: MOBI is not supported, convert it to EPUB',
      },
      {
        extension: '.txt',
        reason: 'not a book format Longbox reads (cbz, cbr, zip, rar, epub, pdf)',
        count: 1,
        message: '1 .txt file skipped: not a book format Longbox reads (cbz, cbr, zip, rar, epub, pdf)',
      },
      {
        extension: '.cbz',
        reason: 'the file is empty',
        count: 1,
        message: '1 .cbz file skipped: the file is empty',
      },
      {
        extension: '',
        reason: 'hidden files and __MACOSX folders are not books',
        count: 1,
        message: '1 file without an extension skipped: hidden files and __MACOSX folders are not books',
      },
    ];
    const bySkipped = (groups: Array<{ message: string }>) =>
      [...groups].sort((a, b) => a.message.localeCompare(b.message));
    expect(status.body).toMatchObject({ status: 'completed', filesTotal: 1, booksAdded: 1, filesSkipped: 7 });
    expect(bySkipped(status.body.skipped)).toEqual(bySkipped(skipped));

    const task = await api(`/tasks/${status.body.taskId}`, { auth });
    expect(task.body.result).toMatchObject({ filesTotal: 1, filesSkipped: 7 });
    expect(bySkipped(task.body.result.skipped)).toEqual(bySkipped(skipped));
    expect(task.body.progress.message).toContain('3 .cb7 files skipped: 7z is not supported, repack as CBZ');

    expect(frame).toMatchObject({ files_total: 1, files_skipped: 7 });
    expect(bySkipped(frame.skipped)).toEqual(bySkipped(skipped));
    expect((await booksByFileName(auth, libraryId))['empty.cbz']).toBeUndefined();
  });
});
