/**
 * Issue 18 point 5: OPDS entries carry the book's credits (with roles where the format has them), its
 * genres and tags as categories/subjects, publisher, language and ISBN (`urn:isbn:`).
 */
import { describe, expect, it } from 'vitest';
import { setupAdmin } from '../support/factories';
import { api } from '../support/http';
import { makeCbz, putObject } from '../support/library-files';
import { entries, fetchAs, textOf } from '../support/opds';
import { createLibrary, scan } from '../support/scans';

describe('OPDS entry metadata (issue 18)', () => {
  it('OPDS 1.2 and 2.0 entries show credits, categories, publisher, language and ISBN', async () => {
    const { auth } = await setupAdmin();
    await putObject(
      'comics/Saga/Saga 001.cbz',
      await makeCbz(2, {
        Series: 'Saga',
        Title: 'Chapter One',
        Number: '1',
        Writer: 'Brian K. Vaughan',
        Penciller: 'Fiona Staples',
        Genre: 'Science Fiction',
        Tags: 'Space',
        Publisher: 'Image',
        LanguageISO: 'en',
        GTIN: '978-1-60706-601-9',
      }),
    );
    const libraryId = await createLibrary(auth);
    await scan(auth, libraryId);
    const seriesId = (await api('/series', { auth })).body.data[0].id;

    const v1 = await fetchAs(`/opds/v1.2/series/${seriesId}`, auth);
    expect(v1.status).toBe(200);
    const [entry] = entries(v1.text);
    expect(entry).toContain('<author><name>Brian K. Vaughan</name></author>');
    expect(entry).toContain('<contributor><name>Fiona Staples</name></contributor>');
    expect(entry).toMatch(/<category[^>]*term="Science Fiction"[^>]*scheme="urn:longbox:genre"/);
    expect(entry).toMatch(/<category[^>]*term="Space"[^>]*scheme="urn:longbox:tag"/);
    expect(textOf(entry as string, 'dc:identifier')).toBe('urn:isbn:9781607066019');
    expect(textOf(entry as string, 'dc:publisher')).toBe('Image');
    expect(textOf(entry as string, 'dc:language')).toBe('en');

    const v2 = await fetchAs(`/opds/v2.0/series/${seriesId}`, auth);
    expect(v2.status).toBe(200);
    const publication = JSON.parse(v2.text).publications[0];
    expect(publication.metadata).toMatchObject({
      author: [{ name: 'Brian K. Vaughan' }],
      penciler: [{ name: 'Fiona Staples' }],
      subject: [{ name: 'Science Fiction' }, { name: 'Space' }],
      publisher: 'Image',
      language: 'en',
      altIdentifier: ['urn:isbn:9781607066019'],
    });
    expect(publication.metadata.identifier).toMatch(/^urn:uuid:/);
  });
});
