import { describe, expect, it } from 'vitest';
import { analyzeBook, containerFor } from '../../src/media';
import { BookAnalysisError } from '../../src/media/errors';
import { epubCoverImage } from '../../src/media/epub';
import { buildEpub } from '../fixtures/epub-writer';
import { jpeg } from '../fixtures/images';
import { collect, r2Book } from '../fixtures/r2-book';
import { buildZip } from '../fixtures/zip-writer';

const epub = containerFor('epub');
const pages = [jpeg(100, 150, { seed: 1 }), jpeg(100, 150, { seed: 2 }), jpeg(120, 150, { seed: 3 })];

async function analysisError(bytes: Uint8Array): Promise<BookAnalysisError> {
  const error = await analyzeBook('epub', await r2Book(bytes, 'books/bad.epub')).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(BookAnalysisError);
  return error as BookAnalysisError;
}

describe('EPUB picture books have one image page per spine item (DECISIONS.md §Books)', () => {
  it('serves the wrapped image of each fixed-layout page byte for byte, cover first', async () => {
    const bytes = buildEpub({
      fixedLayout: true,
      coverStyle: 'epub3',
      rtl: true,
      spine: pages.map((image, i) => ({
        kind: 'wrapper' as const,
        image,
        text: i === 1 ? '<p>Caption overlay</p>' : '',
      })),
    });
    const reader = await r2Book(bytes, 'books/fixed.epub');
    const analysis = await epub.analyze(reader);
    expect(analysis.metadata.epubLayout).toBe('image');
    expect(analysis.metadata.readingDirection).toBe('rtl');
    expect(analysis.pageCount).toBe(3);
    expect(analysis.pages.map((p) => p.fileName)).toEqual([
      'OEBPS/images/page1.jpg',
      'OEBPS/images/page2.jpg',
      'OEBPS/images/page3.jpg',
    ]);
    expect(analysis.coverPage).toBe(1);
    for (const [i, page] of analysis.pages.entries()) {
      const content = await epub.openPage(reader, page.locator);
      expect(content.mediaType).toBe('image/jpeg');
      expect(await collect(content.stream)).toEqual(pages[i]);
    }
    expect(await epub.readPageHeader(reader, analysis.pages[2]!.locator)).toEqual({
      width: 120,
      height: 150,
      mediaType: 'image/jpeg',
    });
  });

  it('treats a book whose spine is bare images or text-free wrappers as image pages without rendition:layout', async () => {
    const bytes = buildEpub({
      spine: [
        { kind: 'image', image: pages[0]! },
        { kind: 'wrapper', image: pages[1]! },
      ],
    });
    const analysis = await analyzeBook('epub', await r2Book(bytes, 'books/images.epub'));
    expect(analysis.metadata.epubLayout).toBe('image');
    expect(analysis.pages.map((p) => p.size)).toEqual([pages[0]!.length, pages[1]!.length]);
  });
});

describe('Reflowable EPUBs count Readium positions (DECISIONS.md §Books)', () => {
  it('counts one position per 1024 uncompressed bytes of each spine item, at least one each, and has no image pages', async () => {
    const bytes = buildEpub({
      coverStyle: 'epub2',
      spine: [
        { kind: 'text', bytes: 5000 },
        { kind: 'text', bytes: 300 },
        { kind: 'wrapper', image: pages[0]!, text: 'Some words' },
      ],
    });
    const reader = await r2Book(bytes, 'books/novel.epub');
    const analysis = await epub.analyze(reader);
    expect(analysis.metadata.epubLayout).toBe('reflowable');
    expect(analysis.pages).toEqual([]);
    // 5000 bytes → 5 positions, 300 → 1, the wrapper (under 1 KiB) → 1.
    expect(analysis.pageCount).toBe(7);
    const cover = epubCoverImage(analysis.containerIndex);
    expect(cover?.fileName).toBe('OEBPS/images/cover.jpg');
    expect(await epub.readPageHeader(reader, cover!.locator)).toEqual({
      width: 60,
      height: 90,
      mediaType: 'image/jpeg',
    });
  });
});

describe('EPUB metadata from the package document (DECISIONS.md §Books)', () => {
  it('reads Dublin Core, creator roles and an EPUB 3 series collection', async () => {
    const metadataXml = `
      <dc:title id="t1">The Main Title</dc:title>
      <meta refines="#t1" property="title-type">main</meta>
      <dc:creator id="c1">Jane Author</dc:creator>
      <meta refines="#c1" property="role" scheme="marc:relators">aut</meta>
      <dc:creator opf:role="ill">Ivan Illustrator</dc:creator>
      <dc:description>&lt;p&gt;A &lt;b&gt;bold&lt;/b&gt; story.&lt;/p&gt;</dc:description>
      <dc:publisher>Longbox Books</dc:publisher>
      <dc:date>2019-04-01</dc:date>
      <dc:language>en</dc:language>
      <dc:subject>Fantasy</dc:subject>
      <dc:subject>Adventure</dc:subject>
      <meta property="belongs-to-collection" id="s1">The Saga</meta>
      <meta refines="#s1" property="collection-type">series</meta>
      <meta refines="#s1" property="group-position">2.5</meta>
      <meta name="calibre:series" content="Ignored Calibre Series"/>`;
    const { metadata } = await analyzeBook(
      'epub',
      await r2Book(buildEpub({ metadataXml, spine: [{ kind: 'text', bytes: 2000 }] }), 'books/meta.epub'),
    );
    expect(metadata).toMatchObject({
      title: 'The Main Title',
      summary: 'A bold story.',
      publisher: 'Longbox Books',
      year: 2019,
      language: 'en',
      genres: ['Fantasy', 'Adventure'],
      series: 'The Saga',
      number: 2,
      chapter: 2.5,
    });
    expect(metadata.authors).toEqual([
      { name: 'Jane Author', role: 'writer' },
      { name: 'Ivan Illustrator', role: 'penciller' },
    ]);
  });

  it('reads the ISBN among the identifiers and the full publication date (issue 18)', async () => {
    const cases: Array<[string, string | null]> = [
      // calibre: opf:scheme="ISBN", hyphens allowed.
      ['<dc:identifier opf:scheme="ISBN">978-0-306-40615-7</dc:identifier>', '9780306406157'],
      // EPUB 3: urn:isbn beside the package's own uuid.
      [
        '<dc:identifier id="uid">urn:uuid:1b4e28ba-2fa1-11d2-883f-0016d3cca427</dc:identifier><dc:identifier>urn:isbn:0306406152</dc:identifier>',
        '0306406152',
      ],
      // EPUB 3 identifier-type refinement (ONIX code 15 = ISBN-13).
      [
        '<dc:identifier id="i2">9780306406157</dc:identifier><meta refines="#i2" property="identifier-type" scheme="onix:codelist5">15</meta>',
        '9780306406157',
      ],
      // Declared ISBN with a wrong check digit: not an ISBN.
      ['<dc:identifier opf:scheme="ISBN">978-0-306-40615-8</dc:identifier>', null],
    ];
    for (const [identifiers, isbn] of cases) {
      const metadataXml = `<dc:title>Book</dc:title>${identifiers}<dc:date>2019-04-21T00:00:00Z</dc:date>`;
      const { metadata } = await analyzeBook(
        'epub',
        await r2Book(buildEpub({ metadataXml, spine: [{ kind: 'text', bytes: 10 }] }), 'books/isbn.epub'),
      );
      expect(metadata.isbn).toBe(isbn);
      expect([metadata.year, metadata.month, metadata.day]).toEqual([2019, 4, 21]);
    }
  });

  it('falls back to calibre series tags', async () => {
    const metadataXml =
      '<dc:title>Book</dc:title><meta name="calibre:series" content="Calibre Saga"/><meta name="calibre:series_index" content="3"/>';
    const { metadata } = await analyzeBook(
      'epub',
      await r2Book(buildEpub({ metadataXml, spine: [{ kind: 'text', bytes: 10 }] }), 'books/calibre.epub'),
    );
    expect([metadata.series, metadata.number]).toEqual(['Calibre Saga', 3]);
  });
});

describe('Broken EPUBs are analysis errors in plain words (DECISIONS.md §Books)', () => {
  it('reports a ZIP renamed .epub', async () => {
    const error = await analysisError(buildZip([{ name: 'page.jpg', data: pages[0]! }]));
    expect([error.code, error.message]).toEqual([
      'not_an_epub',
      'The file is a ZIP archive but not an EPUB: it has no META-INF/container.xml',
    ]);
  });

  it('reports a missing package document and a non-ZIP file', async () => {
    const noOpf = await analysisError(buildEpub({ withoutOpf: true, spine: [{ kind: 'text', bytes: 10 }] }));
    expect(noOpf.message).toBe(
      'The file is a ZIP archive but not an EPUB: its package document OEBPS/content.opf is missing',
    );
    // The EPUB reader names the real format; analyzeBook would read the file as the PDF it is.
    const pdf = (await epub
      .analyze(await r2Book(new TextEncoder().encode('%PDF-1.7\n'), 'books/pdf.epub'))
      .catch((e: unknown) => e)) as BookAnalysisError;
    expect(pdf.message).toBe(
      'The file is not a ZIP archive although it is named .epub: it is a PDF document; rename it to .pdf',
    );
  });
});
