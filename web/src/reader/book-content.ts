/**
 * What an EPUB's sections and their resources may be once foliate-js has read them, before it turns them
 * into the `blob:` documents the reader frames (DECISIONS.md §Security, "Book content is data, never
 * code"). Three walls stand between a book and the app, and this is the innermost:
 * 1. the frames' sandbox has no `allow-scripts` (web/vite.config.ts rewrites foliate-js's);
 * 2. the app's Content-Security-Policy, which `blob:` documents inherit, allows no inline script;
 * 3. here: scripts, event handlers, `javascript:` and other scripting URLs, frames, plugins, forms, meta
 *    refreshes and every reference to another server are taken out of the markup and the CSS, so nothing
 *    is fetched from outside the book and nothing in it is even left for the other walls to stop.
 * The words, pictures and styles stay: a book that had scripts still opens, without them.
 */

const XHTML = 'application/xhtml+xml';
const HTML = 'text/html';
const SVG = 'image/svg+xml';
const CSS = 'text/css';
const XLINK = 'http://www.w3.org/1999/xlink';

/** Elements removed with everything inside them: code, nested browsing contexts, plugins, redirects. */
const REMOVED = new Set([
  'script',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'portal',
  'fencedframe',
  'base',
  'handler',
  'listener',
]);
/** Kept for their contents, but without what makes them act: a form cannot submit without its element. */
const UNWRAPPED = new Set(['form']);
/** SVG animation can write a `javascript:` URL into an attribute after the document loaded. */
const ANIMATIONS = new Set(['set', 'animate', 'animatetransform', 'animatemotion']);
const DESCRIPTIVE_EQUIV = new Set(['content-type', 'content-language', 'content-style-type']);
/** Attributes whose value is fetched or followed as a URL. */
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'poster',
  'data',
  'background',
  'lowsrc',
  'dynsrc',
  'cite',
  'longdesc',
  'manifest',
  'codebase',
  'archive',
  'profile',
  'usemap',
]);
/** Attributes removed outright: never resolved by foliate-js, or only ever a way out of the book. */
const DROPPED_ATTRIBUTES = new Set(['srcset', 'imagesrcset', 'ping', 'srcdoc', 'formtarget']);
/** Links a reader may follow out of the book, in a new tab the app opens (see `openExternalLink`). */
const OUTSIDE_LINK = /^(?:https?|mailto):/i;
/** A URL with a scheme, or one relative to the scheme (`//host/x`). */
const HAS_SCHEME = /^(?:[a-z][a-z0-9+.-]*:|[\\/]{2})/i;
/** Resources the frame may load: the book's own (foliate-js made them `blob:`) and inline `data:`. */
const BOOK_RESOURCE = /^(?:blob:|data:)/i;
/** Resource types served to the frame as themselves; anything else becomes an opaque download. */
const PASSIVE_TYPE =
  /^(?:image\/(?:jpeg|png|gif|webp|avif|bmp|jxl|x-icon)|font\/[\w.+-]+|application\/(?:x-)?font-[\w.+-]+|application\/vnd\.ms-(?:opentype|fontobject)|audio\/[\w.+-]+|video\/[\w.+-]+|text\/plain)$/i;

export interface Cleaned {
  text: string;
  /** True when something that would have run as code (a script, a handler, a script URL) was removed. */
  hadScripts: boolean;
}

/**
 * The URL parser drops leading spaces and control characters and every tab and line break, so
 * `ht<TAB>tp://elsewhere` is an address elsewhere: checks look at what the parser will read.
 */
function asUrlParserReadsIt(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: those characters are what the parser drops
  return value.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+/, '');
}

/** A URL scheme that runs code when followed. */
function isScriptUrl(value: string): boolean {
  // Browsers ignore ASCII whitespace and control characters inside a scheme (`java\tscript:`).
  // biome-ignore lint/suspicious/noControlCharactersInRegex: those characters are what is ignored
  const scheme = value.replace(/[\u0000-\u0020]/g, '').toLowerCase();
  return /^(?:javascript|vbscript|livescript|mocha):/.test(scheme);
}

/** A section or an SVG of the book, as markup without anything that runs or reaches outside. */
export function cleanMarkup(markup: string, type: string): Cleaned {
  const doc = new DOMParser().parseFromString(markup, type as DOMParserSupportedType);
  let hadScripts = false;
  const walker: Element[] = [doc.documentElement];
  for (let element = walker.pop(); element; element = walker.pop()) {
    const name = element.localName.toLowerCase();
    if (REMOVED.has(name) || (ANIMATIONS.has(name) && animatesUrl(element)) || isRefresh(element)) {
      if (name === 'script' || name === 'handler' || name === 'listener' || ANIMATIONS.has(name)) hadScripts = true;
      element.remove();
      continue;
    }
    if (name === 'link' && !isBookStylesheet(element)) {
      element.remove();
      continue;
    }
    for (const attribute of [...element.attributes]) {
      const local = attribute.localName.toLowerCase();
      const value = attribute.value;
      if (local.startsWith('on')) {
        hadScripts = true;
        element.removeAttributeNode(attribute);
      } else if (DROPPED_ATTRIBUTES.has(local)) {
        element.removeAttributeNode(attribute);
      } else if (local === 'style') {
        attribute.value = cleanCss(value);
      } else if (URL_ATTRIBUTES.has(local)) {
        if (isScriptUrl(value)) hadScripts = true;
        if (!allowedUrl(name, local, value)) element.removeAttributeNode(attribute);
      }
    }
    if (name === 'a' && OUTSIDE_LINK.test(linkOf(element))) {
      // Followed only through the app (foliate-js's `external-link` event); should that event not fire, a
      // new window is what the frame's sandbox refuses, so the reader never navigates away from the book.
      element.setAttribute('target', '_blank');
      element.setAttribute('rel', 'noopener noreferrer');
    }
    if (name === 'style' && element.textContent) element.textContent = cleanCss(element.textContent);
    walker.push(...element.children);
    if (UNWRAPPED.has(name)) element.replaceWith(...element.childNodes);
  }
  for (const node of [...doc.childNodes]) {
    // <?xml-stylesheet href="…"?>: an outside sheet, or XSLT, which transforms the whole document.
    if (
      node.nodeType === Node.PROCESSING_INSTRUCTION_NODE &&
      (node as ProcessingInstruction).target === 'xml-stylesheet'
    ) {
      const data = (node as ProcessingInstruction).data;
      if (/type\s*=\s*["'][^"']*xsl/i.test(data) || !/href\s*=\s*["']\s*blob:/i.test(data)) node.remove();
    }
  }
  return { text: new XMLSerializer().serializeToString(doc), hadScripts };
}

function linkOf(element: Element): string {
  return asUrlParserReadsIt(element.getAttribute('href') ?? element.getAttributeNS(XLINK, 'href') ?? '');
}

function animatesUrl(element: Element): boolean {
  const target = (element.getAttribute('attributeName') ?? '').toLowerCase();
  return target === 'href' || target === 'xlink:href' || target.startsWith('on') || target === 'src';
}

/**
 * `<meta http-equiv>` other than the ones that only describe the text: `refresh` navigates the frame away,
 * `set-cookie` would write a cookie. `Content-Type` stays, since it names the charset of an HTML section.
 */
function isRefresh(element: Element): boolean {
  if (element.localName.toLowerCase() !== 'meta') return false;
  const equiv = element.getAttribute('http-equiv');
  return equiv !== null && !DESCRIPTIVE_EQUIV.has(equiv.trim().toLowerCase());
}

function isBookStylesheet(element: Element): boolean {
  const rel = (element.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
  return rel.includes('stylesheet') && /^blob:/i.test(asUrlParserReadsIt(element.getAttribute('href') ?? ''));
}

/**
 * A URL attribute stays when it cannot leave the book: a resource the book holds (`blob:`, `data:`), a
 * path or fragment inside the book (no scheme: foliate-js resolves it, or it loads nothing), or, on a
 * link, an address outside that the reader follows only by choice. Scripting URLs never stay.
 */
function allowedUrl(name: string, attribute: string, raw: string): boolean {
  const value = asUrlParserReadsIt(raw);
  if (isScriptUrl(value)) return false;
  if (!HAS_SCHEME.test(value)) return true;
  if (attribute === 'href' && (name === 'a' || name === 'area')) return OUTSIDE_LINK.test(value);
  return BOOK_RESOURCE.test(value) && attribute !== 'cite' && attribute !== 'longdesc';
}

/**
 * A stylesheet without anything from elsewhere: `url()` keeps only the book's own resources (`blob:`,
 * `data:`) and fragments (`url(#gradient)`), `@import` only the book's own sheets; `image-set()` (whose strings are URLs) and
 * old script hooks (`expression()`, `-moz-binding`, `behavior`) become names no browser knows, which keeps
 * the parentheses balanced so the rest of the sheet still parses.
 */
export function cleanCss(css: string): string {
  return css
    .replace(/@import\s+(?:url\(\s*)?(["']?)([^"')\s;]*)\1\s*\)?[^;]*;?/gi, (rule, _quote, url: string) =>
      /^blob:/i.test(url) ? rule : '',
    )
    .replace(/url\(\s*(["']?)([^"')]*)\1\s*\)/gi, (whole, _quote, url: string) =>
      /^\s*(?:blob:|data:|#)/i.test(url) ? whole : 'none',
    )
    .replace(/(?:-webkit-)?image-set\s*\(|expression\s*\(/gi, 'removed(')
    .replace(/-moz-binding\s*:|behavior\s*:/gi, 'removed:');
}

/** A resource foliate-js hands over as bytes: its type, unless a browser could run it as a document. */
export function passiveType(type: string): string {
  return PASSIVE_TYPE.test(type) ? type : 'application/octet-stream';
}

/** foliate-js's `book.transformTarget` "data" event (epub.js `Loader.createURL`). */
interface DataEventDetail {
  data: string | Blob | Promise<string | Blob>;
  type: string;
}

/**
 * Cleans everything foliate-js loads from `book` before it becomes a `blob:` URL; `onScripts` is called
 * (once) when the book turns out to have had code in it.
 */
export function cleanBookContent(book: { transformTarget?: EventTarget }, onScripts: () => void): void {
  let reported = false;
  const report = () => {
    if (reported) return;
    reported = true;
    onScripts();
  };
  book.transformTarget?.addEventListener('data', (event) => {
    const detail = (event as CustomEvent<DataEventDetail>).detail;
    const type = detail.type;
    const original = detail.data;
    if (type === XHTML || type === HTML || type === SVG || type === CSS) {
      detail.data = Promise.resolve(original).then(async (data) => {
        const text = typeof data === 'string' ? data : await data.text();
        if (type === CSS) return cleanCss(text);
        const cleaned = cleanMarkup(text, type);
        if (cleaned.hadScripts) report();
        return cleaned.text;
      });
    } else {
      detail.type = passiveType(type);
    }
  });
}

/** Where foliate-js would `window.open` a link out of the book: only web and mail links, in a new tab without access to the app. */
export function openExternalLink(href: string): void {
  if (OUTSIDE_LINK.test(asUrlParserReadsIt(href))) window.open(href, '_blank', 'noopener,noreferrer');
}
