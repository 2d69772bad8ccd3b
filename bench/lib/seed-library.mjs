// A library of the benchmark comics (bench/lib/comic-library.mjs) uploaded through the API and scanned, on a
// running Longbox: what a benchmark that reads a real, complete library starts from.
import { book, distinctPages } from './comic-library.mjs';
import { mapLimited } from './longbox-stack.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Creates library `name` at `prefix`, uploads `books` benchmark CBZs (50 pages each, 20 per series), scans
 * it, and resolves once every book is complete (hashes, page sizes, cover) as GET /books shows it.
 * Returns the library id and its books ({id, seriesId, pageCount}).
 */
export async function seedComicLibrary(
  { api, auth, call },
  { name = 'Soak comics', prefix = 'soak', books, timeoutMs = 20 * 60_000 },
) {
  const libraryId = await createLibrary(call, name, prefix);
  const pages = await distinctPages();
  await mapLimited(books, 8, async (i) => {
    const { key, bytes } = book(i, pages);
    await uploadBookFile({ api, auth }, libraryId, key, bytes);
  });
  const scan = await call('POST', `/libraries/${libraryId}/scan`);
  if (scan.status !== 202) throw new Error(`scan start failed: ${JSON.stringify(scan)}`);
  for (const deadline = Date.now() + timeoutMs; ; ) {
    const listed = await listBooks(call, libraryId);
    const complete = listed.filter((b) => /^[0-9a-f]{64}$/.test(b.fileHash ?? '') && b.analyzed);
    if (complete.length === books) {
      return { libraryId, books: complete.map((b) => ({ id: b.id, seriesId: b.seriesId, pageCount: b.pageCount })) };
    }
    if (Date.now() > deadline) throw new Error(`${complete.length} of ${books} books complete after ${timeoutMs} ms`);
    await sleep(1000);
  }
}

/** Creates library `name` at storage prefix `prefix` (POST /libraries); returns its id. */
export async function createLibrary(call, name, prefix) {
  const library = await call('POST', '/libraries', { name, path: prefix });
  if (library.status !== 201) throw new Error(`library creation failed: ${JSON.stringify(library)}`);
  return library.body.id;
}

/** Uploads one book file to `key` in the library (PUT /libraries/{id}/files/{path}, as the import command does). */
export async function uploadBookFile({ api, auth }, libraryId, key, bytes) {
  const url = `${api}/libraries/${libraryId}/files/${key.split('/').map(encodeURIComponent).join('/')}`;
  const res = await fetch(url, {
    method: 'PUT',
    headers: { ...auth, 'Content-Type': 'application/octet-stream' },
    body: bytes,
  });
  if (res.status !== 201) throw new Error(`upload of ${key} failed: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

/** Every book of the library, through the paginated GET /books. */
export async function listBooks(call, libraryId) {
  const all = [];
  for (let page = 1; ; page++) {
    const list = await call('GET', `/books?library_id=${libraryId}&pageSize=500&page=${page}`);
    if (list.status !== 200) throw new Error(`GET /books: ${JSON.stringify(list)}`);
    all.push(...list.body.data);
    if (list.body.data.length < 500) return all;
  }
}
