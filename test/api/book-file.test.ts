/**
 * DECISIONS.md §Storage (Download, beyond API.md): GET /books/{id}/file streams the original file as an
 * attachment with its R2 ETag, Last-Modified and byte ranges (RFC 9110 §14), conditional requests and
 * HEAD, for every format; missing files and the usual 401/403/404.
 */
import { env } from 'cloudflare:test';
import { zipSync } from 'fflate';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { seriesSharingLabels } from '../../src/db/schema';
import { MAX_EDGE_CACHED_PAGE_BYTES } from '../../src/pages/edge-page-cache';
import { PAGE_TABLE_TTL_MS } from '../../src/pages/page-table-cache';
import { buildEpub } from '../fixtures/epub-writer';
import { jpeg } from '../fixtures/images';
import { buildPdf } from '../fixtures/pdf-writer';
import { writeRar4 } from '../fixtures/rar-writer';
import { buildAccessFixture } from '../support/access-fixture';
import { db } from '../support/catalog-factory';
import { ADMIN, createApiKey, setupAdmin } from '../support/factories';
import { faultyWorker } from '../support/faults';
import { api, type Credentials, expectError } from '../support/http';
import { putObject } from '../support/library-files';
import { booksByFileName, fetchRaw, sameBytes } from '../support/media';
import { createLibrary, scan } from '../support/scans';
import { statementCounter } from '../support/statements';

/** A CBZ big enough for ranges to matter: one stored page of 200 KiB of noise behind a JPEG header. */
const CBZ = zipSync({ '1.jpg': [jpeg(64, 64, { seed: 3, padding: 200 * 1024 }), { level: 0 }] });
const FILES = {
  'comics/Mixed/Volume 01 – Ünïcode "quoted".cbz': CBZ,
  'comics/Mixed/strip.cbr': writeRar4([{ name: '1.jpg', data: jpeg(32, 32, { seed: 4 }) }]),
  'comics/Mixed/novel.epub': buildEpub({ spine: [{ kind: 'text', bytes: 3000 }] }),
  'comics/Mixed/doc.pdf': buildPdf([{ kind: 'text', text: 'Hello' }]),
} as const;

async function scannedFiles() {
  const { auth } = await setupAdmin();
  const libraryId = await createLibrary(auth);
  for (const [key, bytes] of Object.entries(FILES)) await putObject(key, bytes);
  await scan(auth, libraryId);
  const books = await booksByFileName(auth, libraryId);
  const cbz = books['Volume 01 – Ünïcode "quoted".cbz'];
  const head = (await env.LIBRARY.head('comics/Mixed/Volume 01 – Ünïcode "quoted".cbz'))!;
  return { auth, libraryId, books, cbz, head };
}

const fileUrl = (id: string) => `/books/${id}/file`;

afterEach(() => vi.useRealTimers());

describe('GET /books/{id}/file: the whole file (DECISIONS.md §Storage)', () => {
  it('streams each format with its media type, an attachment name, the R2 ETag and Last-Modified', async () => {
    const { auth, books, head } = await scannedFiles();
    const expected: Array<[string, string, Uint8Array]> = [
      ['Volume 01 – Ünïcode "quoted".cbz', 'application/vnd.comicbook+zip', CBZ],
      ['strip.cbr', 'application/vnd.comicbook-rar', FILES['comics/Mixed/strip.cbr']],
      ['novel.epub', 'application/epub+zip', FILES['comics/Mixed/novel.epub']],
      ['doc.pdf', 'application/pdf', FILES['comics/Mixed/doc.pdf']],
    ];
    for (const [name, type, bytes] of expected) {
      const file = await fetchRaw(fileUrl(books[name].id), { auth });
      expect(file.status, name).toBe(200);
      expect(sameBytes(file.bytes, bytes), name).toBe(true);
      expect(file.headers.get('Content-Type'), name).toBe(type);
      expect(file.headers.get('Content-Length'), name).toBe(String(bytes.length));
      expect(file.headers.get('Accept-Ranges'), name).toBe('bytes');
      expect(file.headers.get('Cache-Control'), name).toBe('private, no-cache');
    }
    const cbz = await fetchRaw(fileUrl(books['Volume 01 – Ünïcode "quoted".cbz'].id), { auth });
    expect(cbz.headers.get('ETag')).toBe(head.httpEtag);
    expect(cbz.headers.get('Last-Modified')).toBe(head.uploaded.toUTCString());
    // RFC 6266: a safe ASCII fallback plus the exact UTF-8 name, percent-encoded.
    expect(cbz.headers.get('Content-Disposition')).toBe(
      `attachment; filename="Volume 01 _ Unicode _quoted_.cbz"; filename*=UTF-8''Volume%2001%20%E2%80%93%20%C3%9Cn%C3%AFcode%20%22quoted%22.cbz`,
    );
  });

  it('answers If-None-Match with 304 and HEAD with the headers alone', async () => {
    const { auth, cbz, head } = await scannedFiles();
    for (const tag of [head.httpEtag, `W/${head.httpEtag}`, `"x", ${head.httpEtag}`, '*']) {
      const cached = await fetchRaw(fileUrl(cbz.id), { auth, headers: { 'If-None-Match': tag } });
      expect(cached.status, tag).toBe(304);
      expect(cached.bytes.length).toBe(0);
      expect(cached.headers.get('ETag')).toBe(head.httpEtag);
    }
    expect((await fetchRaw(fileUrl(cbz.id), { auth, headers: { 'If-None-Match': '"stale"' } })).status).toBe(200);

    const headOnly = await fetchRaw(fileUrl(cbz.id), { auth, method: 'HEAD' });
    expect(headOnly.status).toBe(200);
    expect(headOnly.bytes.length).toBe(0);
    expect(headOnly.headers.get('Content-Length')).toBe(String(CBZ.length));
    expect(headOnly.headers.get('ETag')).toBe(head.httpEtag);
    expect(headOnly.headers.get('Content-Type')).toBe('application/vnd.comicbook+zip');
  });
});

describe('GET /books/{id}/file: byte ranges (RFC 9110 §14)', () => {
  it('serves bytes=a-b, bytes=a- and bytes=-n as 206 with Content-Range, clamping an end past the file', async () => {
    const { auth, cbz } = await scannedFiles();
    const size = CBZ.length;
    const cases: Array<[string, number, number]> = [
      ['bytes=0-99', 0, 100],
      ['bytes=1000-1000', 1000, 1],
      [`bytes=${size - 10}-`, size - 10, 10],
      ['bytes=-500', size - 500, 500],
      [`bytes=100-${size + 5000}`, 100, size - 100],
      [`bytes=-${size + 10}`, 0, size],
    ];
    for (const [range, offset, length] of cases) {
      const part = await fetchRaw(fileUrl(cbz.id), { auth, headers: { Range: range } });
      expect(part.status, range).toBe(206);
      expect(part.headers.get('Content-Range'), range).toBe(`bytes ${offset}-${offset + length - 1}/${size}`);
      expect(part.headers.get('Content-Length'), range).toBe(String(length));
      expect(sameBytes(part.bytes, CBZ.subarray(offset, offset + length)), range).toBe(true);
    }
  });

  it('answers 416 with Content-Range bytes */size for a range beyond the end, and ignores ranges it does not serve', async () => {
    const { auth, cbz } = await scannedFiles();
    const size = CBZ.length;
    for (const range of [`bytes=${size}-`, `bytes=${size + 1}-${size + 9}`, 'bytes=-0']) {
      const refused = await fetchRaw(fileUrl(cbz.id), { auth, headers: { Range: range } });
      expect(refused.status, range).toBe(416);
      expect(refused.headers.get('Content-Range'), range).toBe(`bytes */${size}`);
      expect(refused.json).toEqual({
        error: 'BadRequest',
        message: expect.stringContaining(String(size)),
        details: null,
      });
    }
    // Several ranges, a reversed range, another unit or garbage: the whole file, as RFC 9110 allows.
    for (const range of ['bytes=0-1,5-6', 'bytes=9-3', 'items=0-5', 'bytes=abc']) {
      const whole = await fetchRaw(fileUrl(cbz.id), { auth, headers: { Range: range } });
      expect(whole.status, range).toBe(200);
      expect(whole.bytes.length, range).toBe(size);
    }
  });

  it('applies a range under If-Range only while the client copy is current', async () => {
    const { auth, cbz, head } = await scannedFiles();
    const current = await fetchRaw(fileUrl(cbz.id), {
      auth,
      headers: { Range: 'bytes=0-9', 'If-Range': head.httpEtag },
    });
    expect(current.status).toBe(206);
    const byDate = await fetchRaw(fileUrl(cbz.id), {
      auth,
      headers: { Range: 'bytes=0-9', 'If-Range': head.uploaded.toUTCString() },
    });
    expect(byDate.status).toBe(206);
    const changed = await fetchRaw(fileUrl(cbz.id), { auth, headers: { Range: 'bytes=0-9', 'If-Range': '"older"' } });
    expect(changed.status).toBe(200);
    expect(changed.bytes.length).toBe(CBZ.length);
  });

  it('serves the tail and the whole of a 24 MiB file', async () => {
    const { auth } = await setupAdmin();
    const libraryId = await createLibrary(auth);
    const big = zipSync({ '1.jpg': [jpeg(64, 64, { seed: 1, padding: 24 * 1024 * 1024 }), { level: 0 }] });
    await putObject('comics/Big/big.cbz', big);
    await scan(auth, libraryId);
    const id = (await booksByFileName(auth, libraryId))['big.cbz'].id;
    const tail = await fetchRaw(fileUrl(id), { auth, headers: { Range: 'bytes=-1024' } });
    expect(tail.status).toBe(206);
    expect(sameBytes(tail.bytes, big.subarray(big.length - 1024))).toBe(true);
    const whole = await fetchRaw(fileUrl(id), { auth });
    expect(whole.bytes.length).toBe(big.length);
    expect(sameBytes(whole.bytes, big)).toBe(true);
  });
});

describe('GET /books/{id}/file: what a request costs (the web EPUB reader makes one Range request after another)', () => {
  const CBZ_KEY = 'comics/Mixed/Volume 01 – Ünïcode "quoted".cbz';

  it('a Range request is one ranged R2 read, the book kept from the first (issue 30); 304, 416 and HEAD one R2 head', async () => {
    const { cbz, head } = await scannedFiles();
    const counter = statementCounter();
    const headers = { Authorization: `Basic ${btoa(`${ADMIN.username}:${ADMIN.password}`)}` };

    const part = await counter.measure(fileUrl(cbz.id), { headers: { ...headers, Range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('Content-Range')).toBe(`bytes 100-199/${CBZ.length}`);
    // Past the Basic sign-in statements, the book row is the request's one read (with its pages, in one batch:
    // the table page requests keep too), then kept: the next Range request reads no book row at all.
    const bookReads = (calls: string[][]) => calls.filter((call) => call.some((sql) => sql.includes('from "books"')));
    expect(bookReads(part.calls)).toHaveLength(1);
    expect(part.r2).toEqual([`get LIBRARY ${CBZ_KEY}`]);
    const next = await counter.measure(fileUrl(cbz.id), { headers: { ...headers, Range: 'bytes=200-299' } });
    expect(next.status).toBe(206);
    expect(bookReads(next.calls)).toEqual([]);
    expect(next.r2).toEqual([`get LIBRARY ${CBZ_KEY}`]);

    const whole = await counter.measure(fileUrl(cbz.id), { headers });
    expect(whole.status).toBe(200);
    expect(whole.r2).toEqual([`get LIBRARY ${CBZ_KEY}`]);

    for (const [extra, status] of [
      [{ 'If-None-Match': head.httpEtag }, 304],
      [{ Range: `bytes=${CBZ.length}-` }, 416],
    ] as const) {
      const answered = await counter.measure(fileUrl(cbz.id), { headers: { ...headers, ...extra } });
      expect(answered.status).toBe(status);
      expect(answered.r2).toEqual([`head LIBRARY ${CBZ_KEY}`]);
    }
    const headOnly = await counter.measure(fileUrl(cbz.id), { headers, method: 'HEAD' });
    expect(headOnly.status).toBe(200);
    expect(headOnly.r2).toEqual([`head LIBRARY ${CBZ_KEY}`]);
  });

  it('serves the file as it is now when it was replaced since the scan: its size, ETag and bytes', async () => {
    const { auth, cbz, head } = await scannedFiles();
    const replaced = zipSync({ '1.jpg': [jpeg(64, 64, { seed: 9, padding: 50 * 1024 }), { level: 0 }] });
    await putObject(CBZ_KEY, replaced);
    const now = (await env.LIBRARY.head(CBZ_KEY))!;
    expect(now.httpEtag).not.toBe(head.httpEtag);

    const part = await fetchRaw(fileUrl(cbz.id), { auth, headers: { Range: 'bytes=-1000' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('ETag')).toBe(now.httpEtag);
    expect(part.headers.get('Content-Range')).toBe(
      `bytes ${replaced.length - 1000}-${replaced.length - 1}/${replaced.length}`,
    );
    expect(sameBytes(part.bytes, replaced.subarray(replaced.length - 1000))).toBe(true);
    // A range past the new end is refused against the new size, though the old file was longer.
    const beyond = await fetchRaw(fileUrl(cbz.id), { auth, headers: { Range: `bytes=${replaced.length + 10}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('Content-Range')).toBe(`bytes */${replaced.length}`);
    // The old ETag no longer matches: the new file, whole; the new one does.
    const stale = await fetchRaw(fileUrl(cbz.id), { auth, headers: { 'If-None-Match': head.httpEtag } });
    expect(stale.status).toBe(200);
    expect(sameBytes(stale.bytes, replaced)).toBe(true);
    expect((await fetchRaw(fileUrl(cbz.id), { auth, headers: { 'If-None-Match': now.httpEtag } })).status).toBe(304);
    // A resumed download whose copy is the old file gets the new file whole, not a range of it.
    const resumed = await fetchRaw(fileUrl(cbz.id), {
      auth,
      headers: { Range: 'bytes=10-', 'If-Range': head.httpEtag },
    });
    expect(resumed.status).toBe(200);
    expect(sameBytes(resumed.bytes, replaced)).toBe(true);
  });
});

describe('GET /books/{id}/file: errors (API.md §7)', () => {
  it('answers 404 with a message when the object is gone from storage, and for unknown or removed books', async () => {
    const { auth, libraryId, books, cbz } = await scannedFiles();
    await env.LIBRARY.delete('comics/Mixed/doc.pdf');
    const gone = expectError(await api(fileUrl(books['doc.pdf'].id), { auth }), 404, 'NotFound');
    expect(gone.message).toMatch(/no longer in storage/);
    await scan(auth, libraryId);
    expectError(await api(fileUrl(books['doc.pdf'].id), { auth }), 404, 'NotFound');
    expectError(await api(fileUrl(crypto.randomUUID()), { auth }), 404, 'NotFound');
    expectError(await api('/books/123/file', { auth }), 400, 'BadRequest');
    expect((await fetchRaw(fileUrl(cbz.id), { auth })).status).toBe(200);
  });

  it('needs credentials (401) and BooksRead (403)', async () => {
    const { auth, cbz } = await scannedFiles();
    expectError(await api(fileUrl(cbz.id)), 401, 'Unauthorized');
    const pagesOnly = await createApiKey(auth, { name: 'pages only', permissions: ['PagesRead'] });
    expectError(await api(fileUrl(cbz.id), { auth: { apiKey: pagesOnly.key } }), 403, 'Forbidden');
    const booksRead = await createApiKey(auth, { name: 'books', permissions: ['BooksRead'] });
    expect((await fetchRaw(fileUrl(cbz.id), { auth: { apiKey: booksRead.key, via: 'basic' } })).status).toBe(200);
  });
});

describe('GET /books/{id}/file: ranges kept in the data center (issue 30, DECISIONS.md §Far readers)', () => {
  const CBZ_KEY = 'comics/Mixed/Volume 01 – Ünïcode "quoted".cbz';
  const ADMIN_AUTH: Credentials = { basic: ADMIN };

  /** The worker with every R2 read recorded (`BUCKET key`), and a request that waits for its cache fill. */
  function recordingWorker() {
    const reads: string[] = [];
    const worker = faultyWorker({ r2Get: ({ bucket, key }) => void reads.push(`${bucket} ${key}`) });
    const get = async (path: string, headers: Record<string, string> = {}, auth: Credentials = ADMIN_AUTH) => {
      reads.length = 0;
      const res = await worker.fetch(path, { auth, headers });
      const bytes = new Uint8Array(await res.arrayBuffer());
      await worker.settle();
      return { res, bytes, reads: [...reads] };
    };
    return { get };
  }

  /** Every header of the answer but the ones that say where its bytes came from and which request it was. */
  const answerHeaders = (res: Response) =>
    Object.fromEntries([...res.headers].filter(([name]) => !['x-longbox-cache', 'x-request-id'].includes(name)));

  /** Asks for the range until the data center answers it (SELF's fill runs after the answer). */
  async function rangeIsKept(auth: Credentials, path: string, range: string) {
    for (let attempt = 0; attempt < 50; attempt++) {
      const response = await fetchRaw(path, { auth, headers: { Range: range } });
      if (response.headers.get('X-Longbox-Cache') === 'hit') return response;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    throw new Error(`${range} of ${path} never came from the data center`);
  }

  it('a range asked for again is the same answer from the data center, with no R2 read', async () => {
    const { cbz, head } = await scannedFiles();
    const { get } = recordingWorker();
    const range = { Range: 'bytes=0-65535' };
    const first = await get(fileUrl(cbz.id), range);
    expect(first.res.status).toBe(206);
    expect(first.res.headers.get('X-Longbox-Cache')).toBe('miss');
    expect(first.reads).toEqual([`LIBRARY ${CBZ_KEY}`]);
    expect(sameBytes(first.bytes, CBZ.subarray(0, 65_536))).toBe(true);

    const again = await get(fileUrl(cbz.id), range);
    expect(again.res.status).toBe(206);
    expect(again.res.headers.get('X-Longbox-Cache')).toBe('hit');
    expect(again.reads).toEqual([]);
    expect(sameBytes(again.bytes, first.bytes)).toBe(true);
    expect(answerHeaders(again.res)).toEqual(answerHeaders(first.res));
    expect(again.res.headers.get('ETag')).toBe(head.httpEtag);
    expect(again.res.headers.get('Last-Modified')).toBe(head.uploaded.toUTCString());
    expect(again.res.headers.get('Content-Range')).toBe(`bytes 0-65535/${CBZ.length}`);

    // A range is kept by where it falls in the file, however the header spells it: the last 1000 bytes.
    const suffix = await get(fileUrl(cbz.id), { Range: 'bytes=-1000' });
    expect(suffix.res.headers.get('X-Longbox-Cache')).toBe('miss');
    const spelledOut = await get(fileUrl(cbz.id), { Range: `bytes=${CBZ.length - 1000}-` });
    expect(spelledOut.res.status).toBe(206);
    expect(spelledOut.reads).toEqual([]);
    expect(sameBytes(spelledOut.bytes, CBZ.subarray(CBZ.length - 1000))).toBe(true);

    // A Komga client reads the same kept bytes, typed as Komga types the file.
    const komga = await get(`/komga/api/v1/books/${cbz.id}/file`, range);
    expect(komga.res.status).toBe(206);
    expect(komga.reads).toEqual([]);
    expect(komga.res.headers.get('Content-Type')).toBe('application/zip');
    expect(sameBytes(komga.bytes, first.bytes)).toBe(true);
  });

  it('If-Range and If-None-Match answer as they do without the cache', async () => {
    const { cbz, head } = await scannedFiles();
    const { get } = recordingWorker();
    const range = { Range: 'bytes=100-1099' };
    await get(fileUrl(cbz.id), range);
    for (const ifRange of [head.httpEtag, head.uploaded.toUTCString()]) {
      const current = await get(fileUrl(cbz.id), { ...range, 'If-Range': ifRange });
      expect(current.res.status, ifRange).toBe(206);
      expect(current.reads, ifRange).toEqual([]);
      expect(sameBytes(current.bytes, CBZ.subarray(100, 1100)), ifRange).toBe(true);
    }
    // A copy of another version gets the whole file, read from R2.
    const changed = await get(fileUrl(cbz.id), { ...range, 'If-Range': '"older"' });
    expect(changed.res.status).toBe(200);
    expect(changed.reads).toEqual([`LIBRARY ${CBZ_KEY}`]);
    expect(sameBytes(changed.bytes, CBZ)).toBe(true);
    const unchanged = await get(fileUrl(cbz.id), { ...range, 'If-None-Match': head.httpEtag });
    expect(unchanged.res.status).toBe(304);
    expect(unchanged.bytes.length).toBe(0);
    expect(unchanged.res.headers.get('ETag')).toBe(head.httpEtag);
    const stale = await get(fileUrl(cbz.id), { ...range, 'If-None-Match': '"older"' });
    expect(stale.res.status).toBe(206);
    expect(stale.res.headers.get('X-Longbox-Cache')).toBe('hit');
    expect(sameBytes(stale.bytes, CBZ.subarray(100, 1100))).toBe(true);
  });

  it('whole files and ranges above the size bound are read from R2 every time', async () => {
    const { auth, libraryId } = await scannedFiles();
    const big = zipSync({
      '1.jpg': [jpeg(64, 64, { seed: 5, padding: MAX_EDGE_CACHED_PAGE_BYTES + 64 * 1024 }), { level: 0 }],
    });
    await putObject('comics/Big/big.cbz', big);
    await scan(auth, libraryId);
    const id = (await booksByFileName(auth, libraryId))['big.cbz'].id;
    const { get } = recordingWorker();
    const cases: Array<[Record<string, string>, number, Uint8Array]> = [
      [{}, 200, big],
      [{ Range: `bytes=0-${MAX_EDGE_CACHED_PAGE_BYTES}` }, 206, big.subarray(0, MAX_EDGE_CACHED_PAGE_BYTES + 1)],
    ];
    for (const [headers, status, expected] of cases) {
      for (let read = 0; read < 2; read++) {
        const answer = await get(fileUrl(id), headers);
        expect(answer.res.status).toBe(status);
        expect(answer.res.headers.get('X-Longbox-Cache')).toBeNull();
        expect(answer.reads).toEqual(['LIBRARY comics/Big/big.cbz']);
        expect(sameBytes(answer.bytes, expected)).toBe(true);
      }
    }
    // The largest range kept is exactly the bound.
    const bound = { Range: `bytes=1-${MAX_EDGE_CACHED_PAGE_BYTES}` };
    expect((await get(fileUrl(id), bound)).res.headers.get('X-Longbox-Cache')).toBe('miss');
    const kept = await get(fileUrl(id), bound);
    expect(kept.reads).toEqual([]);
    expect(sameBytes(kept.bytes, big.subarray(1, MAX_EDGE_CACHED_PAGE_BYTES + 1))).toBe(true);
  }, 120_000);

  it('a file replaced and rescanned is never answered from the old version’s ranges', async () => {
    const { auth, libraryId, cbz, head } = await scannedFiles();
    const range = 'bytes=0-4095';
    await rangeIsKept(auth, fileUrl(cbz.id), range);
    const replaced = zipSync({ '1.jpg': [jpeg(64, 64, { seed: 11, padding: 90 * 1024 }), { level: 0 }] });
    await putObject(CBZ_KEY, replaced);
    const now = (await env.LIBRARY.head(CBZ_KEY))!;
    // Until the rescan the catalog describes the scanned version: a kept range is that version's bytes under that
    // version's ETag, so a client checking validators (If-Range) sees the change at its next read from R2.
    const kept = await fetchRaw(fileUrl(cbz.id), { auth, headers: { Range: range } });
    expect(kept.headers.get('ETag')).toBe(head.httpEtag);
    expect(sameBytes(kept.bytes, CBZ.subarray(0, 4096))).toBe(true);
    const resumed = await fetchRaw(fileUrl(cbz.id), {
      auth,
      headers: { Range: 'bytes=4096-8191', 'If-Range': head.httpEtag },
    });
    expect(resumed.status).toBe(200);
    expect(sameBytes(resumed.bytes, replaced)).toBe(true);

    await scan(auth, libraryId);
    // The book's table kept near the reader follows the rescan within its lifetime (pages/page-table-cache.ts).
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + PAGE_TABLE_TTL_MS + 1000);
    const fresh = await fetchRaw(fileUrl(cbz.id), { auth, headers: { Range: range } });
    expect(fresh.status).toBe(206);
    expect(fresh.headers.get('X-Longbox-Cache')).toBe('miss');
    expect(fresh.headers.get('ETag')).toBe(now.httpEtag);
    expect(fresh.headers.get('Content-Range')).toBe(`bytes 0-4095/${replaced.length}`);
    expect(sameBytes(fresh.bytes, replaced.subarray(0, 4096))).toBe(true);
    const keptAgain = await rangeIsKept(auth, fileUrl(cbz.id), range);
    expect(keptAgain.headers.get('ETag')).toBe(now.httpEtag);
    expect(sameBytes(keptAgain.bytes, replaced.subarray(0, 4096))).toBe(true);
  });

  it('a reader who may not see the book gets 404 though its range is kept', async () => {
    const f = await buildAccessFixture();
    const range = 'bytes=0-999';
    const reader: Credentials = { apiKey: f.userKey };
    const teen = f.series.xteen.bookIds[0] as string;
    const beta = f.series.xbeta.bookIds[0] as string;
    for (const book of [teen, beta]) await rangeIsKept(f.admin, fileUrl(book), range);
    // The reader is served the kept range of a book they see…
    const seen = await fetchRaw(fileUrl(teen), { auth: reader, headers: { Range: range } });
    expect(seen.status).toBe(206);
    expect(seen.headers.get('X-Longbox-Cache')).toBe('hit');
    // …and nothing of a book in a library not shared with them, nor of one hidden from them a moment ago.
    await db.insert(seriesSharingLabels).values({ seriesId: f.series.xteen.seriesId, labelId: f.labels.xsecret });
    for (const book of [beta, teen]) {
      const refused = await fetchRaw(fileUrl(book), { auth: reader, headers: { Range: range } });
      expect(refused.status, book).toBe(404);
      expect(refused.headers.get('Content-Range'), book).toBeNull();
      expect(refused.json, book).toMatchObject({ error: 'NotFound' });
    }
  }, 180_000);
});
