/**
 * The text files of a comic made into a fixed-layout EPUB 3 (EPUB 3.2 §Fixed Layouts; the rendition
 * vocabulary `rendition:layout pre-paginated`): the OCF container, the package document, the navigation
 * document and one XHTML page per image, each page's viewport the image's own size so the reader shows it
 * whole. Deterministic: the same book gives the same bytes, so a download can be resumed with a Range request.
 */

/** One page of the comic as the EPUB shows it. */
export interface EpubPage {
  /** 1-based, in reading order. */
  number: number;
  /** An EPUB core image type (EPUB 3.2 §Core Media Types): image/jpeg, image/png or image/gif. */
  mediaType: EpubImageType;
  width: number;
  height: number;
}

/** What the package document says about the book. */
export interface EpubBookInfo {
  /** The book's UUID: the EPUB's `dc:identifier` is `urn:uuid:<id>`. */
  id: string;
  title: string;
  /** A BCP 47 tag; anything else becomes `und` (undetermined). */
  language: string | null;
  authors: readonly string[];
  /** `dcterms:modified`. */
  modified: Date;
  /** Right-to-left comics (manga) turn pages the other way. */
  rightToLeft: boolean;
}

export const EPUB_IMAGE_TYPES = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif' } as const;
export type EpubImageType = keyof typeof EPUB_IMAGE_TYPES;

export const isEpubImageType = (mediaType: string): mediaType is EpubImageType =>
  Object.hasOwn(EPUB_IMAGE_TYPES, mediaType);

export const MIMETYPE = 'application/epub+zip';
export const CONTAINER_PATH = 'META-INF/container.xml';
export const PACKAGE_PATH = 'OEBPS/content.opf';
export const NAV_PATH = 'OEBPS/nav.xhtml';

/** Where page n lives, relative to the package document (`page-0007.xhtml`): also how a reader's position maps back. */
export function pageDocumentName(number: number, pageCount: number): string {
  return `page-${String(number).padStart(Math.max(4, String(pageCount).length), '0')}.xhtml`;
}

export function imageName(page: Pick<EpubPage, 'number' | 'mediaType'>, pageCount: number): string {
  return `images/${pageDocumentName(page.number, pageCount).replace(/\.xhtml$/, '')}.${EPUB_IMAGE_TYPES[page.mediaType]}`;
}

/** The page number a path inside the EPUB names (`OEBPS/page-0007.xhtml`, `page-0007.xhtml#x`), or null. */
export function pageOfDocument(path: string): number | null {
  const match = /(?:^|\/)page-(\d{4,})\.xhtml(?:[#?].*)?$/.exec(path);
  const number = match ? Number(match[1]) : Number.NaN;
  return Number.isSafeInteger(number) && number > 0 ? number : null;
}

/** Text for XML content and attributes: escaped, without the control characters XML 1.0 cannot hold at all. */
function xmlText(text: string): string {
  let out = '';
  for (const c of text) {
    const code = c.codePointAt(0) as number;
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0xfffe || code === 0xffff)
      continue;
    out += c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : c;
  }
  return out;
}

const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;
const languageOf = (language: string | null) => (language && LANGUAGE_TAG.test(language) ? language : 'und');

/** `dcterms:modified` wants seconds and a Z: `2026-01-01T00:00:00Z`. */
const modifiedOf = (at: Date) => `${at.toISOString().slice(0, 19)}Z`;

export function containerXml(): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles>
    <rootfile full-path="${PACKAGE_PATH}" media-type="application/oebps-package+xml"/>
  </rootfiles>
</container>
`;
}

export function packageDocument(book: EpubBookInfo, pages: readonly EpubPage[]): string {
  const count = pages.length;
  const creators = book.authors
    .filter((name) => name.trim() !== '')
    .map((name, i) => `    <dc:creator id="creator-${i + 1}">${xmlText(name)}</dc:creator>\n`)
    .join('');
  const manifest = pages
    .map((page) => {
      const id = pageDocumentName(page.number, count).replace(/\.xhtml$/, '');
      const cover = page.number === 1 ? ' properties="cover-image"' : '';
      return `    <item id="${id}" href="${pageDocumentName(page.number, count)}" media-type="application/xhtml+xml"/>
    <item id="${id}-image" href="${imageName(page, count)}" media-type="${page.mediaType}"${cover}/>\n`;
    })
    .join('');
  const spine = pages
    .map((page) => `    <itemref idref="${pageDocumentName(page.number, count).replace(/\.xhtml$/, '')}"/>\n`)
    .join('');
  const first = pages[0] ? pageDocumentName(pages[0].number, count).replace(/\.xhtml$/, '') : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="book-id" xml:lang="${languageOf(book.language)}">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="book-id">urn:uuid:${xmlText(book.id)}</dc:identifier>
    <dc:title>${xmlText(book.title) || 'Untitled'}</dc:title>
    <dc:language>${languageOf(book.language)}</dc:language>
${creators}    <meta property="dcterms:modified">${modifiedOf(book.modified)}</meta>
    <meta property="rendition:layout">pre-paginated</meta>
    <meta property="rendition:orientation">auto</meta>
    <meta property="rendition:spread">landscape</meta>
    <meta name="cover" content="${first}-image"/>
  </metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
${manifest}  </manifest>
  <spine page-progression-direction="${book.rightToLeft ? 'rtl' : 'ltr'}">
${spine}  </spine>
</package>
`;
}

export function navDocument(book: EpubBookInfo, pages: readonly EpubPage[]): string {
  const title = xmlText(book.title) || 'Untitled';
  const first = pages[0] ? pageDocumentName(pages[0].number, pages.length) : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops">
<head>
<meta charset="UTF-8"/>
<title>${title}</title>
</head>
<body>
<nav epub:type="toc" id="toc">
<h1>${title}</h1>
<ol>
<li><a href="${first}">${title}</a></li>
</ol>
</nav>
</body>
</html>
`;
}

export function pageDocument(page: EpubPage, pageCount: number): string {
  const { width, height } = page;
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
<meta charset="UTF-8"/>
<meta name="viewport" content="width=${width}, height=${height}"/>
<title>Page ${page.number}</title>
<style>html,body{margin:0;padding:0;width:${width}px;height:${height}px;overflow:hidden}img{display:block;width:${width}px;height:${height}px}</style>
</head>
<body>
<img src="${imageName(page, pageCount)}" alt="Page ${page.number}"/>
</body>
</html>
`;
}
