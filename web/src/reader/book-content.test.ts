/**
 * The innermost wall around EPUB content (DECISIONS.md §Security): what the markup and CSS of a hostile
 * section keep and lose. The browser-level proof — nothing runs and nothing leaves in Chromium — is
 * test/e2e/hostile-books.test.ts; these pin down each rule on its own.
 */
import { describe, expect, it, vi } from 'vitest';
import { cleanCss, cleanMarkup, openExternalLink, passiveType } from './book-content';

const XHTML = 'application/xhtml+xml';
const section = (body: string, head = '') =>
  `<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>T</title>${head}</head><body>${body}</body></html>`;

function clean(body: string, head = '') {
  const { text, hadScripts } = cleanMarkup(section(body, head), XHTML);
  return { doc: new DOMParser().parseFromString(text, XHTML as DOMParserSupportedType), text, hadScripts };
}

describe('cleanMarkup', () => {
  it('removes scripts and event handlers, keeps the words, and says the book had scripts', () => {
    const { doc, text, hadScripts } = clean(
      '<p onclick="steal()">Call me <b onmouseover="steal()">Ishmael</b>.</p><script>steal()</script><img src="blob:x" onerror="steal()" alt="whale"/>',
    );
    expect(hadScripts).toBe(true);
    expect(text).not.toMatch(/steal|<script/i);
    expect(doc.querySelector('p')?.textContent).toBe('Call me Ishmael.');
    expect(doc.querySelector('img')?.getAttribute('src')).toBe('blob:x');
    expect(doc.querySelector('img')?.getAttribute('alt')).toBe('whale');
  });

  it('reports nothing for a book without code', () => {
    expect(clean('<p>Plain <a href="ch2.xhtml#x">text</a>.</p>').hadScripts).toBe(false);
  });

  it('takes out script URLs however they are spelled, and links a reader could follow to outside open in a new tab', () => {
    const { doc, hadScripts } = clean(
      [
        '<a id="js" href="javascript:steal()">1</a>',
        '<a id="tab" href="java&#9;script:steal()">2</a>',
        '<a id="upper" href=" JAVASCRIPT:steal()">3</a>',
        '<a id="data" href="data:text/html,&lt;script&gt;steal()&lt;/script&gt;">4</a>',
        '<a id="inside" href="ch2.xhtml#note">5</a>',
        '<a id="web" href="https://example.org/">6</a>',
      ].join(''),
    );
    expect(hadScripts).toBe(true);
    for (const id of ['js', 'tab', 'upper', 'data'])
      expect(doc.getElementById(id)?.hasAttribute('href'), id).toBe(false);
    expect(doc.getElementById('inside')?.getAttribute('href')).toBe('ch2.xhtml#note');
    expect(doc.getElementById('inside')?.hasAttribute('target')).toBe(false);
    const web = doc.getElementById('web')!;
    expect(web.getAttribute('href')).toBe('https://example.org/');
    expect(web.getAttribute('target')).toBe('_blank');
    expect(web.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('removes frames, plugins, base, refreshes and outside resources; unwraps forms', () => {
    const { doc, text } = clean(
      [
        '<iframe src="https://elsewhere.test/"></iframe>',
        '<object data="https://elsewhere.test/x.swf">fallback</object>',
        '<embed src="https://elsewhere.test/x"/>',
        '<form action="https://elsewhere.test/collect"><p id="in-form">Question</p><input name="q"/><button formaction="https://elsewhere.test/">Send</button></form>',
        '<img id="remote" src="http://elsewhere.test/pixel.png" alt="remote"/>',
        '<img id="tabbed" src="ht&#9;tp://elsewhere.test/pixel.png" alt="tabbed"/>',
        '<img id="srcset" src="blob:a" srcset="https://elsewhere.test/2x.png 2x" alt=""/>',
        '<video id="video" poster="https://elsewhere.test/p.png" src="blob:v"></video>',
      ].join(''),
      '<base href="https://elsewhere.test/"/><meta http-equiv="refresh" content="0;url=https://elsewhere.test/"/><meta http-equiv="Content-Type" content="text/html; charset=utf-8"/><link rel="stylesheet" href="https://elsewhere.test/x.css"/><link rel="prefetch" href="https://elsewhere.test/y"/><link rel="stylesheet" href="blob:book-css"/>',
    );
    expect(text).not.toContain('elsewhere.test');
    for (const tag of ['iframe', 'object', 'embed', 'form', 'base']) expect(doc.querySelector(tag), tag).toBeNull();
    expect(doc.querySelector('meta[http-equiv="refresh"]')).toBeNull();
    expect(doc.querySelector('meta[http-equiv="Content-Type"]')).not.toBeNull();
    expect([...doc.querySelectorAll('link')].map((link) => link.getAttribute('href'))).toEqual(['blob:book-css']);
    expect(doc.getElementById('in-form')?.textContent).toBe('Question');
    expect(doc.querySelector('button')?.hasAttribute('formaction')).toBe(false);
    expect(doc.getElementById('remote')?.hasAttribute('src')).toBe(false);
    expect(doc.getElementById('tabbed')?.hasAttribute('src')).toBe(false);
    expect(doc.getElementById('srcset')?.hasAttribute('srcset')).toBe(false);
    expect(doc.getElementById('video')?.getAttribute('src')).toBe('blob:v');
    expect(doc.getElementById('video')?.hasAttribute('poster')).toBe(false);
  });

  it('cleans SVG: its scripts, handlers, animations that write a link, and outside references', () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" onload="steal()">
      <script>steal()</script>
      <a id="link" xlink:href="javascript:steal()"><text>Tap</text><set attributeName="href" to="javascript:steal()"/></a>
      <image id="remote" xlink:href="https://elsewhere.test/i.png"/>
      <image id="own" href="blob:img"/>
      <rect fill="url(#gradient)" style="fill: url(https://elsewhere.test/f.svg)"/>
    </svg>`;
    const { text, hadScripts } = cleanMarkup(svg, 'image/svg+xml');
    expect(hadScripts).toBe(true);
    expect(text).not.toMatch(/steal|elsewhere|<script|<set/);
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    expect(doc.querySelector('text')?.textContent).toBe('Tap');
    expect(doc.getElementById('own')?.getAttribute('href')).toBe('blob:img');
    expect(doc.querySelector('rect')?.getAttribute('fill')).toBe('url(#gradient)');
  });
});

describe('cleanCss', () => {
  it('keeps the book’s own resources and drops everything from elsewhere', () => {
    const css = [
      '@import url("https://elsewhere.test/a.css");',
      "@import 'http://elsewhere.test/b.css' screen;",
      '@import url("blob:own-sheet");',
      '@font-face { font-family: X; src: url(https://elsewhere.test/f.woff2) format("woff2"), url("blob:own-font"); }',
      'p { background: url( "//elsewhere.test/bg.png" ); color: red; }',
      'q { background-image: image-set("https://elsewhere.test/1x.png" 1x); }',
      'em { behavior: url(x.htc); width: expression(alert(1)); }',
      'svg { fill: url(#gradient); }',
    ].join('\n');
    const cleaned = cleanCss(css);
    // What is left of the image-set() is a function no browser knows: nothing in it is fetched.
    expect(cleaned.replace(/removed\([^)]*\)/g, '')).not.toContain('elsewhere.test');
    expect(cleaned).not.toMatch(/image-set\(|expression\(|behavior:/);
    expect(cleaned).toContain('@import url("blob:own-sheet");');
    expect(cleaned).toContain('url("blob:own-font")');
    expect(cleaned).toContain('url(#gradient)');
    expect(cleaned).toContain('color: red');
  });
});

describe('passiveType', () => {
  it('passes images, fonts and media as themselves, and anything a browser could run as a document as bytes', () => {
    for (const type of ['image/png', 'image/jpeg', 'font/woff2', 'application/vnd.ms-opentype', 'audio/mpeg']) {
      expect(passiveType(type)).toBe(type);
    }
    for (const type of ['text/xml', 'application/xml', 'application/xslt+xml', 'text/html', 'application/pdf', '']) {
      expect(passiveType(type)).toBe('application/octet-stream');
    }
  });
});

describe('openExternalLink', () => {
  it('opens web and mail links in a tab without access back to the app, and nothing else', () => {
    const open = vi.spyOn(window, 'open').mockImplementation(() => null);
    try {
      for (const href of ['javascript:alert(1)', ' JAVASCRIPT:alert(1)', 'data:text/html,x', 'file:///etc/passwd']) {
        openExternalLink(href);
      }
      expect(open).not.toHaveBeenCalled();
      openExternalLink('https://example.org/page');
      openExternalLink('mailto:author@example.org');
      expect(open.mock.calls).toEqual([
        ['https://example.org/page', '_blank', 'noopener,noreferrer'],
        ['mailto:author@example.org', '_blank', 'noopener,noreferrer'],
      ]);
    } finally {
      open.mockRestore();
    }
  });
});
