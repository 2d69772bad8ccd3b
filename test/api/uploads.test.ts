/** DECISIONS.md §Storage (uploading into a library, beyond API.md); API.md §7 errors. */
import { env } from 'cloudflare:test';
import { zipSync } from 'fflate';
import { beforeEach, describe, expect, it } from 'vitest';
import { createUser, login, setupAdmin } from '../support/factories';
import { api, type Credentials, expectError } from '../support/http';

let admin: Credentials;
let library: { id: string; path: string };

beforeEach(async () => {
  admin = (await setupAdmin()).auth;
  const res = await api('/libraries', { auth: admin, json: { name: 'Comics', path: 'comics' } });
  library = res.body;
});

/** A small valid CBZ: two stored "pages" and a ComicInfo.xml. */
function tinyCbz(pages = 2): Uint8Array {
  const files: Record<string, Uint8Array> = {
    'ComicInfo.xml': new TextEncoder().encode('<ComicInfo><Series>Test</Series></ComicInfo>'),
  };
  for (let i = 1; i <= pages; i++)
    files[`${String(i).padStart(3, '0')}.jpg`] = new Uint8Array([0xff, 0xd8, i, 0xff, 0xd9]);
  return zipSync(files, { level: 0 });
}

const fileUrl = (path: string, query = '', libraryId = library.id) =>
  `/libraries/${libraryId}/files/${path}${query ? `?${query}` : ''}`;

function upload(
  path: string,
  body: BodyInit,
  options: { query?: string; auth?: Credentials; libraryId?: string } = {},
) {
  return api(fileUrl(path, options.query, options.libraryId), {
    method: 'PUT',
    body,
    auth: 'auth' in options ? options.auth : admin,
    headers: { 'Content-Type': 'application/octet-stream' },
  });
}

describe('PUT /libraries/{id}/files/{path} streams a book into the library (DECISIONS.md §Storage)', () => {
  it('stores the bytes under the library prefix and answers 201 {path, size, etag}', async () => {
    const cbz = tinyCbz();
    const res = await upload('Saga/Saga%20%23001.cbz', cbz);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ path: 'comics/Saga/Saga #001.cbz', size: cbz.length, etag: expect.any(String) });

    const object = await env.LIBRARY.get('comics/Saga/Saga #001.cbz');
    expect(object?.etag).toBe(res.body.etag);
    expect(object?.httpMetadata?.contentType).toBe('application/vnd.comicbook+zip');
    expect(new Uint8Array(await object!.arrayBuffer())).toEqual(cbz);
  });

  it('accepts every supported extension in any case, and unicode names', async () => {
    // .zip and .rar are comics too, read by content (DECISIONS.md §Books).
    for (const name of ['a.cbz', 'b.CBR', 'c.epub', 'd.Pdf', 'e.zip', 'f.RAR', 'Ñandú%E2%80%99s%20book.epub']) {
      expect((await upload(`Mixed/${name}`, tinyCbz())).status).toBe(201);
    }
    const listed = await env.LIBRARY.list({ prefix: 'comics/Mixed/' });
    expect(listed.objects.map((o) => o.key).sort()).toContain('comics/Mixed/Ñandú’s book.epub');
    expect(listed.objects).toHaveLength(7);
  });

  it('never replaces an existing object unless ?overwrite=true', async () => {
    await upload('Saga/1.cbz', tinyCbz(1));
    const again = expectError(await upload('Saga/1.cbz', tinyCbz(3)), 409, 'Conflict');
    expect(again.message).toContain('overwrite=true');
    expect((await env.LIBRARY.head('comics/Saga/1.cbz'))?.size).toBe(tinyCbz(1).length);

    const replaced = await upload('Saga/1.cbz', tinyCbz(3), { query: 'overwrite=true' });
    expect(replaced.status).toBe(201);
    expect((await env.LIBRARY.head('comics/Saga/1.cbz'))?.size).toBe(tinyCbz(3).length);
    expectError(await upload('Saga/1.cbz', tinyCbz(3), { query: 'overwrite=yes' }), 400, 'BadRequest');
  });

  it('writes at the bucket root for a whole-bucket library', async () => {
    await api(`/libraries/${library.id}`, { method: 'DELETE', auth: admin });
    const whole = await api('/libraries', { auth: admin, json: { name: 'All', path: '/' } });
    const res = await upload('Loose.pdf', new TextEncoder().encode('%PDF-1.4'), { libraryId: whole.body.id });
    expect(res.body.path).toBe('Loose.pdf');
  });

  it.each([
    ['notes.txt', 'unsupported file type'],
    ['Saga/cover', 'unsupported file type'],
    ['.cbz', 'unsupported file type'],
    ['..%2F..%2Fescape.cbz', '".." segments'],
    ['Saga%2F.%2F1.cbz', '".." segments'],
    ['Saga%5C1.cbz', 'not "\\"'],
    ['Saga%01x.cbz', 'control characters'],
    ['C:%5Cx.cbz', 'not "\\"'],
  ])('rejects file path %j with 400', async (path, reason) => {
    const error = expectError(await upload(path, tinyCbz()), 400, 'BadRequest');
    expect(error.details).toEqual([{ path: 'path', message: expect.stringContaining(reason) }]);
    expect((await env.LIBRARY.list()).objects).toHaveLength(0);
  });

  it('rejects an empty body and a body without a declared length', async () => {
    const empty = expectError(await upload('Saga/1.cbz', new Uint8Array()), 400, 'BadRequest');
    expect(empty.message).toContain('empty');

    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(tinyCbz());
        controller.close();
      },
    });
    const unknownLength = expectError(await upload('Saga/2.cbz', chunked), 400, 'BadRequest');
    expect(unknownLength.message).toContain('Content-Length');
    expect((await env.LIBRARY.list()).objects).toHaveLength(0);
  });

  it('answers 404 for an unknown library and 400 for a malformed id', async () => {
    const unknown = '6f1c1c8e-3f5e-4a53-9e57-1c2f0d9e4b11';
    expectError(await upload('a.cbz', tinyCbz(), { libraryId: unknown }), 404, 'NotFound');
    const bad = expectError(await upload('a.cbz', tinyCbz(), { libraryId: 'nope' }), 400, 'BadRequest');
    expect(bad.details?.[0]?.path).toBe('id');
  });

  it('never deletes a file: DELETE without uploadId is a 400 and the object stays', async () => {
    await upload('Saga/1.cbz', tinyCbz());
    expectError(await api(fileUrl('Saga/1.cbz'), { method: 'DELETE', auth: admin }), 400, 'BadRequest');
    expect(await env.LIBRARY.head('comics/Saga/1.cbz')).not.toBeNull();
  });
});

/** 5 MiB: R2's minimum size for every multipart part but the last. */
const PART_SIZE = 5 * 1024 * 1024;

function patternedBytes(size: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i += 4096) bytes[i] = (i / 4096 + seed) % 251;
  return bytes;
}

describe('multipart uploads for large files (DECISIONS.md §Storage)', () => {
  it('starts, uploads parts in any order, and completes into one object', async () => {
    const started = await api(fileUrl('Big/Omnibus.cbz', 'uploads'), { method: 'POST', auth: admin });
    expect(started.status).toBe(200);
    expect(started.body).toEqual({ uploadId: expect.any(String), path: 'comics/Big/Omnibus.cbz' });
    const uploadId = encodeURIComponent(started.body.uploadId);

    const first = patternedBytes(PART_SIZE, 1);
    const last = patternedBytes(1234, 2);
    const part2 = await upload('Big/Omnibus.cbz', last, { query: `uploadId=${uploadId}&partNumber=2` });
    const part1 = await upload('Big/Omnibus.cbz', first, { query: `uploadId=${uploadId}&partNumber=1` });
    expect(part1.status).toBe(200);
    expect(part1.body).toEqual({ partNumber: 1, etag: expect.any(String) });
    expect(part2.body.partNumber).toBe(2);
    expect(await env.LIBRARY.head('comics/Big/Omnibus.cbz')).toBeNull();

    const done = await api(fileUrl('Big/Omnibus.cbz', `uploadId=${uploadId}`), {
      auth: admin,
      json: { parts: [part2.body, { part_number: 1, etag: part1.body.etag }] },
    });
    expect(done.status).toBe(201);
    expect(done.body).toEqual({ path: 'comics/Big/Omnibus.cbz', size: PART_SIZE + 1234, etag: expect.any(String) });

    const object = await env.LIBRARY.get('comics/Big/Omnibus.cbz');
    const stored = new Uint8Array(await object!.arrayBuffer());
    expect(stored.length).toBe(PART_SIZE + 1234);
    expect(stored.subarray(PART_SIZE)).toEqual(last);
    expect(stored[4096]).toBe(first[4096]);
    expect(object?.httpMetadata?.contentType).toBe('application/vnd.comicbook+zip');
  });

  it('refuses to start over an existing object unless ?overwrite=true', async () => {
    await upload('Big/Omnibus.cbz', tinyCbz());
    expectError(await api(fileUrl('Big/Omnibus.cbz', 'uploads'), { method: 'POST', auth: admin }), 409, 'Conflict');
    const res = await api(fileUrl('Big/Omnibus.cbz', 'uploads&overwrite=true'), { method: 'POST', auth: admin });
    expect(res.status).toBe(200);
  });

  it('rejects bad part numbers, bodies, unknown uploads and undersized parts', async () => {
    const started = await api(fileUrl('Big/x.cbz', 'uploads'), { method: 'POST', auth: admin });
    const uploadId = encodeURIComponent(started.body.uploadId);
    for (const partNumber of ['0', '10001', 'one', '']) {
      const res = await upload('Big/x.cbz', tinyCbz(), { query: `uploadId=${uploadId}&partNumber=${partNumber}` });
      expect(expectError(res, 400, 'BadRequest').details?.[0]?.path).toBe('partNumber');
    }
    expectError(
      await upload('Big/x.cbz', new Uint8Array(), { query: `uploadId=${uploadId}&partNumber=1` }),
      400,
      'BadRequest',
    );

    const complete = (json: unknown) => api(fileUrl('Big/x.cbz', `uploadId=${uploadId}`), { auth: admin, json });
    expectError(await complete({ parts: [] }), 400, 'BadRequest');
    expectError(await complete({ parts: [{ partNumber: 1 }] }), 400, 'BadRequest');
    expectError(await complete({ pieces: [] }), 400, 'BadRequest');

    // Every part but the last must be at least 5 MiB.
    const small1 = await upload('Big/x.cbz', tinyCbz(), { query: `uploadId=${uploadId}&partNumber=1` });
    const small2 = await upload('Big/x.cbz', tinyCbz(), { query: `uploadId=${uploadId}&partNumber=2` });
    expectError(await complete({ parts: [small1.body, small2.body] }), 400, 'BadRequest');

    expectError(
      await upload('Big/x.cbz', tinyCbz(), { query: 'uploadId=no-such-upload&partNumber=1' }),
      404,
      'NotFound',
    );
    expectError(await api(fileUrl('Big/x.cbz'), { method: 'POST', auth: admin }), 400, 'BadRequest');
  });

  it('aborts an upload, after which its parts are gone', async () => {
    const started = await api(fileUrl('Big/x.cbz', 'uploads'), { method: 'POST', auth: admin });
    const uploadId = encodeURIComponent(started.body.uploadId);
    const part = await upload('Big/x.cbz', tinyCbz(), { query: `uploadId=${uploadId}&partNumber=1` });
    expect((await api(fileUrl('Big/x.cbz', `uploadId=${uploadId}`), { method: 'DELETE', auth: admin })).status).toBe(
      204,
    );
    expectError(
      await api(fileUrl('Big/x.cbz', `uploadId=${uploadId}`), { auth: admin, json: { parts: [part.body] } }),
      404,
      'NotFound',
    );
    expect(await env.LIBRARY.head('comics/Big/x.cbz')).toBeNull();
  });
});

describe('upload permissions (DECISIONS.md §Roles and permissions: LibrariesWrite)', () => {
  it('answers 401 without credentials and 403 to a reader on every upload form', async () => {
    const user = await createUser(admin, { role: 'reader' });
    const reader = (await login(user.username, user.password)).auth;
    for (const auth of [undefined, reader]) {
      const status = auth ? 403 : 401;
      const kind = auth ? 'Forbidden' : 'Unauthorized';
      expectError(await upload('a.cbz', tinyCbz(), { auth }), status, kind);
      expectError(await upload('a.cbz', tinyCbz(), { auth, query: 'uploadId=x&partNumber=1' }), status, kind);
      expectError(await api(fileUrl('a.cbz', 'uploads'), { method: 'POST', auth }), status, kind);
      expectError(await api(fileUrl('a.cbz', 'uploadId=x'), { auth, json: { parts: [] } }), status, kind);
      expectError(await api(fileUrl('a.cbz', 'uploadId=x'), { method: 'DELETE', auth }), status, kind);
    }
    expect((await env.LIBRARY.list()).objects).toHaveLength(0);
  });

  it('lets a maintainer upload', async () => {
    const user = await createUser(admin, { role: 'maintainer' });
    const maintainer = (await login(user.username, user.password)).auth;
    expect((await upload('a.cbz', tinyCbz(), { auth: maintainer })).status).toBe(201);
  });
});
