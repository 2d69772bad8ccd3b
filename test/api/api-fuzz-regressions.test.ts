/**
 * Schema mismatches Schemathesis found (scripts/api-fuzz.sh, docs/RELIABILITY.md): each response it
 * flagged is checked here against the OpenAPI document the server itself publishes.
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { buildEpub } from '../fixtures/epub-writer';
import { jpeg } from '../fixtures/images';
import { buildPdf } from '../fixtures/pdf-writer';
import { writeRar4 } from '../fixtures/rar-writer';
import { setupAdmin } from '../support/factories';
import { api } from '../support/http';
import { makeCbz, putObject } from '../support/library-files';
import { booksByFileName, fetchRaw } from '../support/media';
import { createLibrary, scan } from '../support/scans';

/** The published OpenAPI document (docs switched on for this request only). */
async function openApiDocument(): Promise<any> {
  const ctx = createExecutionContext();
  const docsEnv = { ...env, LONGBOX_API__ENABLE_API_DOCS: 'true' } as unknown as Env;
  const response = await createApp().fetch(new Request('http://longbox.test/docs/openapi.json'), docsEnv, ctx);
  await waitOnExecutionContext(ctx);
  return response.json();
}

const documented = (spec: any, path: string, method: string) => spec.paths[path][method].responses;

describe('responses Schemathesis flagged match the published OpenAPI document (issue 13)', () => {
  it('GET /books/{id}/file documents the media type each format is served with (ST105)', async () => {
    const spec = await openApiDocument();
    const responses = documented(spec, '/books/{id}/file', 'get');
    const { auth } = await setupAdmin();
    const libraryId = await createLibrary(auth);
    await putObject('comics/A/a.cbz', await makeCbz(1));
    await putObject('comics/A/b.cbr', writeRar4([{ name: '1.jpg', data: jpeg(16, 16) }]));
    await putObject('comics/A/c.epub', buildEpub({ spine: [{ kind: 'text', bytes: 2000 }] }));
    await putObject('comics/A/d.pdf', buildPdf([{ kind: 'text', text: 'x' }]));
    await scan(auth, libraryId);
    const books = Object.values(await booksByFileName(auth, libraryId));
    expect(books).toHaveLength(4);
    for (const book of books) {
      const whole = await fetchRaw(`/books/${book.id}/file`, { auth });
      const part = await fetchRaw(`/books/${book.id}/file`, { auth, headers: { Range: 'bytes=0-9' } });
      expect([whole.status, part.status]).toEqual([200, 206]);
      expect(Object.keys(responses['200'].content), book.fileName).toContain(whole.headers.get('Content-Type'));
      expect(Object.keys(responses['206'].content), book.fileName).toContain(part.headers.get('Content-Type'));
    }
  });

  it('DELETE /user/preferences/{key} documents the 400 a malformed key gets (ST103)', async () => {
    const spec = await openApiDocument();
    const { auth } = await setupAdmin();
    const response = await api('/user/preferences/s%60h%C2%87', { method: 'DELETE', auth });
    expect(response.status).toBe(400);
    expect(Object.keys(documented(spec, '/user/preferences/{key}', 'delete'))).toContain('400');
    expect(Object.keys(documented(spec, '/user/preferences/{key}', 'put'))).toContain('400');
  });
});
