/**
 * Issue 18 point 3: uploaded covers under /api/v1 (Codex-rs's routes). An upload becomes the series' or
 * book's thumbnail (made by the renderer), can be listed, selected, deleted, and reset to the generated
 * cover; what is not a decodable JPEG/PNG/WebP, too large or too many pixels is a 400 with the reason.
 */
import { describe, expect, it } from 'vitest';
import { jpeg, png, webpHeader } from '../fixtures/images';
import { createUser, login, setupAdmin } from '../support/factories';
import { SELF } from 'cloudflare:test';
import { api, authHeaders, type Credentials, expectError } from '../support/http';
import { makeCbz, putObject } from '../support/library-files';
import { imageSize } from '../support/media';
import { createLibrary, scan } from '../support/scans';

function form(bytes: Uint8Array, part = 'file'): FormData {
  const data = new FormData();
  data.append(part, new Blob([bytes]), 'cover.bin');
  return data;
}

const upload = (auth: Credentials, path: string, bytes: Uint8Array, part = 'file') =>
  api(path, { method: 'POST', auth, body: form(bytes, part) });

async function seed() {
  const { auth } = await setupAdmin();
  await putObject('comics/Saga/Saga 001.cbz', await makeCbz(2, { Series: 'Saga', Number: '1' }, [60, 90]));
  const libraryId = await createLibrary(auth);
  await scan(auth, libraryId);
  const seriesId = (await api('/series', { auth })).body.data[0].id as string;
  const bookId = (await api(`/series/${seriesId}/books`, { auth })).body.data[0].id as string;
  return { auth, seriesId, bookId };
}

describe('uploaded covers (issue 18; Codex-rs cover routes)', () => {
  it('serves an uploaded series cover, lists and selects covers, and resets to the first book', async () => {
    const { auth, seriesId } = await seed();
    const generated = await api(`/series/${seriesId}/thumbnail`, { auth });
    expect(generated.status).toBe(200);

    const first = await upload(auth, `/series/${seriesId}/cover`, png(300, 200, 1));
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({
      seriesId,
      isSelected: true,
      source: 'custom',
      mediaType: 'image/png',
      width: 300,
      height: 200,
    });
    const shown = await api(`/series/${seriesId}/thumbnail`, { auth });
    expect(shown.headers.get('ETag')).not.toBe(generated.headers.get('ETag'));
    const series = (await api(`/series/${seriesId}`, { auth })).body;
    expect(series).toMatchObject({ hasCustomCover: true, selectedCoverSource: `custom:${first.body.id}` });

    // A second upload (part named `cover`, as Codex-rs also accepts) is selected; the first can come back.
    const second = await upload(auth, `/series/${seriesId}/cover`, jpeg(160, 160), 'cover');
    expect(second.body.mediaType).toBe('image/jpeg');
    let list = (await api(`/series/${seriesId}/covers`, { auth })).body.covers;
    expect(list.map((c: { id: string; isSelected: boolean }) => [c.id, c.isSelected])).toEqual([
      [first.body.id, false],
      [second.body.id, true],
    ]);
    const selected = await api(`/series/${seriesId}/covers/${first.body.id}/select`, { method: 'PUT', auth });
    expect(selected.body).toMatchObject({ id: first.body.id, isSelected: true });
    expect((await api(`/series/${seriesId}/thumbnail`, { auth })).headers.get('ETag')).toBe(shown.headers.get('ETag'));
    const image = await fetchImage(auth, `/series/${seriesId}/covers/${second.body.id}/image`);
    expect(imageSize(image)).toEqual({ width: 160, height: 160 });

    // Reset: the first book's cover again, uploads kept.
    expect((await api(`/series/${seriesId}/covers/selected`, { method: 'DELETE', auth })).status).toBe(204);
    expect((await api(`/series/${seriesId}/thumbnail`, { auth })).headers.get('ETag')).toBe(
      generated.headers.get('ETag'),
    );
    expect((await api(`/series/${seriesId}`, { auth })).body).toMatchObject({
      hasCustomCover: false,
      selectedCoverSource: 'first_book',
    });
    list = (await api(`/series/${seriesId}/covers`, { auth })).body.covers;
    expect(list.every((c: { isSelected: boolean }) => !c.isSelected)).toBe(true);

    // Deleting a cover removes it (and its image).
    expect((await api(`/series/${seriesId}/covers/${second.body.id}`, { method: 'DELETE', auth })).status).toBe(204);
    expectError(await api(`/series/${seriesId}/covers/${second.body.id}/image`, { auth }), 404, 'NotFound');
    expect((await api(`/series/${seriesId}/covers`, { auth })).body.covers).toHaveLength(1);
  });

  it("shows a book's uploaded cover as its thumbnail until reset", async () => {
    const { auth, bookId } = await seed();
    const generated = await fetchImage(auth, `/books/${bookId}/thumbnail`);
    const uploaded = await upload(auth, `/books/${bookId}/cover`, png(400, 100, 2));
    expect(uploaded.body).toMatchObject({ bookId, isSelected: true });
    const shown = imageSize(await fetchImage(auth, `/books/${bookId}/thumbnail`));
    expect(shown.width / shown.height).toBeCloseTo(4, 1);
    expect((await api(`/books/${bookId}/covers/selected`, { method: 'DELETE', auth })).status).toBe(204);
    expect(imageSize(await fetchImage(auth, `/books/${bookId}/thumbnail`))).toEqual(imageSize(generated));
  });

  it('refuses what is not an image, a cover too large or with too many pixels, and needs write permission', async () => {
    const { auth, seriesId, bookId } = await seed();
    const notImage = await upload(auth, `/series/${seriesId}/cover`, new TextEncoder().encode('GIF89a but not really'));
    expectError(notImage, 400, 'BadRequest');
    expect(notImage.body.message).toMatch(/not a JPEG, PNG or WebP/);
    const corrupt = await upload(auth, `/series/${seriesId}/cover`, png(40, 40).slice(0, 60));
    expectError(corrupt, 400, 'BadRequest');
    const huge = await upload(auth, `/books/${bookId}/cover`, webpHeader('VP8X', 9000, 9000));
    expectError(huge, 400, 'BadRequest');
    expect(huge.body.message).toMatch(/million pixels/);
    const big = new Uint8Array(21 * 1024 * 1024);
    big.set(png(10, 10));
    const tooBig = await upload(auth, `/books/${bookId}/cover`, big);
    expectError(tooBig, 400, 'BadRequest');
    expect(tooBig.body.message).toMatch(/larger than 20 MB/);
    expectError(
      await api(`/series/${seriesId}/cover`, { method: 'POST', auth, json: { file: 'x' } }),
      400,
      'BadRequest',
    );
    expect((await api(`/series/${seriesId}/covers`, { auth })).body.covers).toEqual([]);
    expect((await api(`/series/${seriesId}`, { auth })).body.hasCustomCover).toBe(false);

    const reader = await createUser(auth, { role: 'reader' });
    const { auth: readerAuth } = await login(reader.username, reader.password);
    expectError(await upload(readerAuth, `/series/${seriesId}/cover`, png(10, 10)), 403, 'Forbidden');
    expectError(
      await api(`/books/${bookId}/covers/selected`, { method: 'DELETE', auth: readerAuth }),
      403,
      'Forbidden',
    );
    expect((await api(`/books/${bookId}/covers`, { auth: readerAuth })).status).toBe(200);
  });
});

async function fetchImage(auth: Credentials, path: string): Promise<Uint8Array> {
  const response = await SELF.fetch(`http://longbox.test/api/v1${path}`, { headers: authHeaders(auth) });
  expect(response.status).toBe(200);
  return new Uint8Array(await response.arrayBuffer());
}
