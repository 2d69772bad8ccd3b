/**
 * The EPUB range loader (issue 12 point 4, notes §3.4): foliate-js's zip reading fed by single-range
 * requests reads the central directory and the entries asked for, not the whole file; a server that
 * ignores Range still works; HTTP errors are reported clearly. The "server" here is a function answering
 * Range requests over real ZIP bytes made with fflate.
 */
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { BlobSource, HttpRangeSource, makeEpubLoader, RangeRequestError } from './epub-range-loader';

const text = (s: string) => new TextEncoder().encode(s);

/** An EPUB-like ZIP: small deflated XHTML entries and one large stored binary the reader never opens. */
function bookBytes(): Uint8Array {
  const noise = new Uint8Array(2 * 1024 * 1024);
  for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) >>> 24;
  return zipSync({
    mimetype: [text('application/epub+zip'), { level: 0 }],
    'META-INF/container.xml': text('<container/>'),
    'OEBPS/ch1.xhtml': text(`<html><body><h1>Chapter 1</h1>${'<p>Call me Ishmael.</p>'.repeat(200)}</body></html>`),
    'OEBPS/big.bin': [noise, { level: 0 }],
  });
}

function rangeServer(bytes: Uint8Array, options: { ignoreRange?: boolean; status?: number } = {}) {
  const log: string[] = [];
  const fetchImpl = async (_url: string, init?: RequestInit) => {
    const range = new Headers(init?.headers).get('Range') ?? '';
    log.push(range);
    if (options.status) return new Response('nope', { status: options.status });
    const match = /^bytes=(\d+)-(\d+)$/.exec(range);
    if (!match || options.ignoreRange) return new Response(bytes.slice());
    const start = Number(match[1]);
    const end = Math.min(Number(match[2]), bytes.length - 1);
    return new Response(bytes.slice(start, end + 1), {
      status: 206,
      headers: { 'Content-Range': `bytes ${start}-${end}/${bytes.length}` },
    });
  };
  return { fetchImpl, log };
}

describe('EPUB range loader', () => {
  it('lists entries and reads a chapter with a few small range requests', async () => {
    const bytes = bookBytes();
    const { fetchImpl, log } = rangeServer(bytes);
    const source = new HttpRangeSource('/api/v1/books/b1/file', fetchImpl);
    const loader = await makeEpubLoader(source);
    expect(loader.entries.map((e) => e.filename)).toContain('OEBPS/ch1.xhtml');
    expect(loader.getSize('OEBPS/big.bin')).toBe(2 * 1024 * 1024);
    expect(await loader.loadText('OEBPS/ch1.xhtml')).toContain('<h1>Chapter 1</h1>');
    expect(loader.loadText('missing.xhtml')).toBeNull();
    expect(log[0]).toBe('bytes=0-0');
    expect(source.stats.bytes).toBeLessThan(bytes.length / 10);
    expect(source.stats.requests).toBeLessThanOrEqual(4);
  });

  it('loads entries as Blobs of the requested type', async () => {
    const source = new HttpRangeSource('/f', rangeServer(bookBytes()).fetchImpl);
    const loader = await makeEpubLoader(source);
    const blob = await loader.loadBlob('META-INF/container.xml', 'application/xml');
    expect(blob?.type).toBe('application/xml');
    expect(await blob?.text()).toBe('<container/>');
  });

  it('still works when the server ignores Range and sends the whole file once', async () => {
    const { fetchImpl, log } = rangeServer(bookBytes(), { ignoreRange: true });
    const loader = await makeEpubLoader(new HttpRangeSource('/f', fetchImpl));
    expect(await loader.loadText('OEBPS/ch1.xhtml')).toContain('Chapter 1');
    expect(log).toHaveLength(1);
  });

  it('reports an HTTP error instead of parsing an error page', async () => {
    const { fetchImpl } = rangeServer(bookBytes(), { status: 401 });
    await expect(makeEpubLoader(new HttpRangeSource('/f', fetchImpl))).rejects.toThrow(RangeRequestError);
    await expect(makeEpubLoader(new HttpRangeSource('/f', fetchImpl))).rejects.toThrow('HTTP 401');
  });

  it('reads an offline copy from a Blob', async () => {
    const loader = await makeEpubLoader(new BlobSource(new Blob([bookBytes() as Uint8Array<ArrayBuffer>])));
    expect(await loader.loadText('OEBPS/ch1.xhtml')).toContain('Ishmael');
  });
});
