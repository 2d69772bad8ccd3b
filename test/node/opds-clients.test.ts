/**
 * DECISIONS.md §Reader apps and test/vendor/opds/README.md: every OPDS 1.2 feed kind validates with
 * `jing` in the README's three steps (the feed without its PSE links against opds.rnc, each PSE link
 * alone against opds-pse-1.2.rnc, the OpenSearch description against opensearch-1.1.rnc), and real
 * client libraries read what Longbox serves: Readium's r2-opds-js (what Thorium runs) for OPDS 1, OPDS 2,
 * the authentication document and DiViNa manifests (r2-shared-js, its publication model), and opds-ts
 * for the PSE attributes r2-opds-js drops. The server is the real one (`wrangler dev`), over HTTP.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import Ajv from 'ajv';
import { zipSync } from 'fflate';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LongboxServer, startServer } from '../support/dev-server';
import { buildEpub } from '../fixtures/epub-writer';
import { eventually } from '../support/eventually';

const require = createRequire(import.meta.url);
/** The grammars, vendored with their origin and licence (test/vendor/opds/README.md). */
const SPEC = path.resolve(__dirname, '../vendor/opds');
const HAS_JING = spawnSync('jing', [], { encoding: 'utf8' }).error === undefined;
if (!HAS_JING) console.warn('jing is not installed: the OPDS schema validation is skipped (apt-get install jing)');

const PSE_LINK = /<link\b[^>]*rel="http:\/\/vaemendis\.net\/opds-pse\/stream"[^>]*\/>/g;

let server: LongboxServer;
let auth = '';
const work = mkdtempSync(path.join(tmpdir(), 'longbox-opds-jing-'));
const ids: Record<string, string> = {};

async function call(method: string, route: string, body?: BodyInit | object, headers: Record<string, string> = {}) {
  const isJson = body !== undefined && !(body instanceof Uint8Array) && typeof body === 'object';
  const send = () =>
    fetch(`${server.url}${route}`, {
      method,
      headers: { Authorization: auth, ...(isJson ? { 'Content-Type': 'application/json' } : {}), ...headers },
      body: isJson ? JSON.stringify(body) : (body as BodyInit | undefined),
    });
  // A kept-alive connection the server closed while the test waited (the Palace parser's install) fails
  // the first request sent on it; a GET is sent again on a new one.
  const response = await send().catch((error) => (method === 'GET' ? send() : Promise.reject(error)));
  const text = await response.text();
  return { status: response.status, type: response.headers.get('Content-Type') ?? '', text };
}

async function cbz(pages: number, comicInfo: string): Promise<Uint8Array> {
  const files: Record<string, Uint8Array> = { 'ComicInfo.xml': new TextEncoder().encode(comicInfo) };
  for (let i = 1; i <= pages; i++) {
    files[`${i}.png`] = new Uint8Array(
      await sharp({ create: { width: 80, height: 120, channels: 3, background: { r: 40 * i, g: 90, b: 160 } } })
        .png()
        .toBuffer(),
    );
  }
  return zipSync(files, { level: 0 });
}

beforeAll(async () => {
  server = await startServer();
  const setup = await call('POST', '/api/v1/setup/initialize', {
    username: 'admin',
    email: 'admin@example.com',
    password: 'admin-password-1',
  });
  auth = `Bearer ${JSON.parse(setup.text).access_token}`;
  const library = JSON.parse((await call('POST', '/api/v1/libraries', { name: 'Comics', path: 'comics' })).text);
  ids.library = library.id;
  const info = (n: number) =>
    `<?xml version="1.0"?><ComicInfo><Series>Saga</Series><Number>${n}</Number><Title>Chapter ${n}</Title><Writer>Brian K. Vaughan</Writer><LanguageISO>en</LanguageISO><Year>2012</Year><Summary>Issue ${n} &amp; more</Summary></ComicInfo>`;
  for (const [file, bytes] of [
    ['Saga/Saga 001.cbz', await cbz(3, info(1))],
    ['Saga/Saga 002.cbz', await cbz(2, info(2))],
  ] as const) {
    const put = await call('PUT', `/api/v1/libraries/${library.id}/files/${encodeURI(file)}`, bytes, {
      'Content-Type': 'application/octet-stream',
    });
    if (put.status !== 201) throw new Error(`upload ${file}: ${put.status} ${put.text}`);
  }
  await call('POST', `/api/v1/libraries/${library.id}/scan?mode=normal`);
  for (let i = 0; i < 400; i++) {
    const status = JSON.parse((await call('GET', `/api/v1/libraries/${library.id}/scan-status`)).text);
    if (status.status !== 'running' && status.status !== 'pending') break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // Page sizes (DiViNa manifests) come from the book-work queue after the scan: wait until every book has them.
  let books: Array<{ id: string; title: string; seriesId: string; analyzed: boolean }> = [];
  for (let i = 0; i < 400; i++) {
    books = JSON.parse((await call('GET', `/api/v1/books?library_id=${library.id}`)).text).data;
    if (books.length > 0 && books.every((b) => b.analyzed)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  for (const book of books) ids[book.title] = book.id;
  ids.series = books[0]?.seriesId ?? '';
  // Collections, a read list in an order of its own, and a want-to-read queue (issue 19's feeds).
  const made = async (route: string, body: object) => {
    const response = await call('POST', route, body);
    if (response.status !== 201 && response.status !== 200)
      throw new Error(`${route}: ${response.status} ${response.text}`);
    return JSON.parse(response.text).id as string;
  };
  ids.collection = await made('/api/v1/collections', { name: 'Space operas', seriesIds: [ids.series] });
  ids.smart = await made('/api/v1/collections', {
    name: 'Vaughan books',
    target: 'books',
    condition: { title: { operator: 'beginsWith', value: 'Chapter' } },
  });
  ids.readList = await made('/api/v1/readlists', {
    name: 'Backwards',
    summary: 'Saga & more, read backwards',
    bookIds: [ids['Chapter 2'], ids['Chapter 1']],
  });
  await made('/api/v1/want-to-read', { seriesId: ids.series });
  await made('/api/v1/want-to-read', { bookId: ids['Chapter 2'] });
  // Reflowable EPUBs without a cover, in a library of their own (the feeds above keep their one series):
  // Plain Text comes after Plain Text Again (read), so it is on deck; Prose is being read.
  const novels = JSON.parse((await call('POST', '/api/v1/libraries', { name: 'Novels', path: 'novels' })).text);
  for (const [file, title] of [
    ['Plain/Plain%20Text.epub', 'Plain Text'],
    ['Plain/Plain%20Text%20Again.epub', 'Plain Text Again'],
    ['Prose/Prose.epub', 'Prose'],
  ]) {
    const epub = buildEpub({
      spine: [{ kind: 'text', bytes: 2000 }],
      coverStyle: 'none',
      metadataXml: `<dc:title>${title}</dc:title>`,
    });
    const putEpub = await call('PUT', `/api/v1/libraries/${novels.id}/files/${file}`, epub, {
      'Content-Type': 'application/octet-stream',
    });
    if (putEpub.status !== 201) throw new Error(`upload ${file}: ${putEpub.status} ${putEpub.text}`);
  }
  await call('POST', `/api/v1/libraries/${novels.id}/scan?mode=normal`);
  for (let i = 0; i < 400; i++) {
    const found = JSON.parse((await call('GET', `/api/v1/books?library_id=${novels.id}`)).text).data;
    if (found.length === 3 && found.every((b: { analyzed: boolean }) => b.analyzed)) {
      for (const book of found) ids[book.title] = book.id;
      ids.plainSeries = found.find((b: { title: string }) => b.title === 'Plain Text').seriesId;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  ids.novels = novels.id;
  expect((await call('POST', `/api/v1/books/${ids['Plain Text Again']}/read`)).status).toBe(200);
  const reading = await call('PUT', `/api/v1/books/${ids.Prose}/progress`, {
    current_page: 1,
    progress_percentage: 0.4,
  });
  expect(reading.status).toBe(200);
  ids.coverless = await made('/api/v1/collections', {
    name: 'Plain books',
    target: 'books',
    condition: { title: { operator: 'beginsWith', value: 'Plain' } },
  });
  ids.mixedList = await made('/api/v1/readlists', { name: 'Mixed', bookIds: [ids['Plain Text'], ids['Chapter 1']] });
  await made('/api/v1/want-to-read', { bookId: ids['Plain Text'] });
  // A page read through streaming, so pse:lastRead and the keep-reading feed have something to show.
  const page = await call('GET', `/opds/v1.2/books/${ids['Chapter 1']}/pages/1?width=600`);
  expect(page.status).toBe(200);
  // Written after the page, once the app's burst of fetches is over (DECISIONS.md §Reader apps).
  await eventually(
    () => call('GET', `/api/v1/books/${ids['Chapter 1']}/progress`),
    (progress) => progress.status === 200 && JSON.parse(progress.text).currentPage === 2,
  );
}, 240_000);

afterAll(async () => {
  await server?.stop();
  rmSync(work, { recursive: true, force: true });
});

/** Every Atom document kind an app reads, by name. */
function atomFeeds() {
  return {
    catalog: '/opds/v1.2/catalog',
    libraries: '/opds/v1.2/libraries',
    library: `/opds/v1.2/libraries/${ids.library}`,
    'library books': `/opds/v1.2/libraries/${ids.library}/books?pageSize=1`,
    'all series': '/opds/v1.2/series',
    series: `/opds/v1.2/series/${ids.series}`,
    'recently added': '/opds/v1.2/recently-added',
    'keep reading': '/opds/v1.2/keep-reading',
    'on deck': '/opds/v1.2/on-deck',
    search: '/opds/v1.2/search?query=saga',
    'search: series': '/opds/v1.2/search/series?query=saga',
    'search: books, paged': '/opds/v1.2/search/books?query=saga&pageSize=1',
    'want to read': '/opds/v1.2/want-to-read',
    collections: '/opds/v1.2/collections',
    collection: `/opds/v1.2/collections/${ids.collection}`,
    'smart collection of books': `/opds/v1.2/collections/${ids.smart}`,
    'read lists': '/opds/v1.2/readlists',
    'read list': `/opds/v1.2/readlists/${ids.readList}`,
    'not found': '/opds/v1.2/series/00000000-0000-4000-8000-000000000000',
  };
}

/**
 * Every OPDS 2.0 feed kind that lists publications, each holding at least one book without a cover
 * (issue 31 point 14: deployed parsers reject such a publication unless it has a raster image).
 */
function coverlessFeeds() {
  return {
    'library books': `/opds/v2.0/libraries/${ids.novels}/books`,
    series: `/opds/v2.0/series/${ids.plainSeries}`,
    'recently added': '/opds/v2.0/recently-added',
    'keep reading': '/opds/v2.0/keep-reading',
    'on deck': '/opds/v2.0/on-deck',
    search: '/opds/v2.0/search?query=plain',
    'want to read': '/opds/v2.0/want-to-read',
    'smart collection of books': `/opds/v2.0/collections/${ids.coverless}`,
    'read list': `/opds/v2.0/readlists/${ids.mixedList}`,
  };
}

function jing(schema: string, xml: string, name: string) {
  const file = path.join(work, `${name.replace(/\W+/g, '-')}.xml`);
  writeFileSync(file, xml);
  const result = spawnSync('jing', ['-c', path.join(SPEC, schema), file], { encoding: 'utf8' });
  return { status: result.status, output: result.stdout };
}

describe.skipIf(!HAS_JING)('jing validates every OPDS 1.2 document (test/vendor/opds/README.md three steps)', () => {
  it('each feed kind without its PSE links, each PSE link alone, and the OpenSearch description', async () => {
    let pseLinks = 0;
    for (const [name, route] of Object.entries(atomFeeds())) {
      const feed = await call('GET', route);
      expect(feed.type, name).toContain('application/atom+xml');
      // Step 1: the feed without its PSE links against opds.rnc.
      const step1 = jing('opds.rnc', feed.text.replace(PSE_LINK, ''), name);
      expect(step1, `${name}\n${feed.text.slice(0, 1500)}`).toEqual({ status: 0, output: '' });
      // Step 2: each PSE link as its own document, with the Atom and PSE namespaces declared.
      for (const [i, match] of [...feed.text.matchAll(PSE_LINK)].entries()) {
        pseLinks += 1;
        const link = match[0].replace(
          '<link ',
          '<link xmlns="http://www.w3.org/2005/Atom" xmlns:pse="http://vaemendis.net/opds-pse/ns" ',
        );
        expect(jing('opds-pse-1.2.rnc', `<?xml version="1.0"?>\n${link}`, `${name}-pse-${i}`), link).toEqual({
          status: 0,
          output: '',
        });
      }
    }
    expect(pseLinks).toBeGreaterThanOrEqual(6);
    // Step 3: the OpenSearch description.
    const description = await call('GET', '/opds/v1.2/opensearch.xml');
    expect(jing('opensearch-1.1.rnc', description.text, 'opensearch')).toEqual({ status: 0, output: '' });
  });

  it('the validation catches a broken feed (the check can fail)', () => {
    const broken = jing('opds.rnc', '<feed xmlns="http://www.w3.org/2005/Atom"><title>x</title></feed>', 'broken');
    expect(broken.status).toBe(1);
  });
});

/**
 * The OPDS 2.0 JSON Schemas (opds-community/drafts `schema/`, with the Readium Web Publication Manifest schemas
 * they reference), vendored with their origin in test/vendor/opds2/README.md, compiled with Ajv.
 */
function opds2Validator() {
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
  const root = path.resolve(__dirname, '../vendor/opds2');
  const walk = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? walk(path.join(dir, entry.name))
        : entry.name.endsWith('.json')
          ? [path.join(dir, entry.name)]
          : [],
    );
  for (const file of walk(root)) ajv.addSchema(JSON.parse(readFileSync(file, 'utf8')));
  const check = (id: string) => {
    const validate = ajv.getSchema(`https://drafts.opds.io/schema/${id}.schema.json`);
    if (!validate) throw new Error(`no schema ${id}`);
    return (document: unknown) =>
      validate(document) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };
  return { feed: check('feed'), publication: check('publication') };
}

describe('the OPDS 2.0 JSON Schema (test/vendor/opds2/README.md)', () => {
  const schema = opds2Validator();
  const json = async (route: string) => {
    const response = await call('GET', route);
    expect(response.status, route).toBe(200);
    return JSON.parse(response.text);
  };

  it('every feed kind validates, and every publication, a book without a cover included (its placeholder image)', async () => {
    const feeds = Object.entries(atomFeeds())
      // A search's own feeds of series and of books are OPDS 1.2's (its one document pages one list).
      .filter(([name]) => name !== 'not found' && !name.startsWith('search: '))
      .map(([name, route]) => [name, route.replace('/opds/v1.2/', '/opds/v2.0/')]);
    feeds.push(...Object.entries(coverlessFeeds()).map(([name, route]) => [`coverless ${name}`, route]));
    for (const [name, route] of feeds) {
      const feed = await json(route as string);
      // The schema has no valid empty feed (publications, navigation or groups, each with at least one item);
      // an empty list (on deck with nothing started) keeps `publications: []`, its one known departure.
      const empty = Array.isArray(feed.publications) && feed.publications.length === 0;
      expect(schema.feed(feed), `${name}: ${route}`).toEqual(
        empty ? ['/publications must NOT have fewer than 1 items'] : [],
      );
    }
    for (const title of ['Chapter 1', 'Chapter 2', 'Plain Text']) {
      const publication = await json(`/opds/v2.0/books/${ids[title]}`);
      expect(schema.publication(publication), title).toEqual([]);
      expect(publication.images[0].type, title).toBe(title === 'Plain Text' ? 'image/png' : 'image/jpeg');
    }
  });

  it('the validation can fail: an SVG-only images list (the placeholder) is refused, as is a publication without links', async () => {
    const publication = await json(`/opds/v2.0/books/${ids['Plain Text']}`);
    const svgOnly = { ...publication, images: [{ href: 'https://x.test/cover.svg', type: 'image/svg+xml' }] };
    expect(schema.publication(svgOnly).join('\n')).toContain('images');
    expect(schema.publication({ metadata: publication.metadata })).not.toEqual([]);
  });
});

describe('Readium r2-opds-js (Thorium) and opds-ts read the catalog', () => {
  const { initGlobalConverters_OPDS } = require('r2-opds-js/dist/es8-es2017/src/opds/init-globals');
  const { initGlobalConverters_GENERIC } = require('r2-shared-js/dist/es8-es2017/src/init-globals');
  const { XML } = require('r2-utils-js/dist/es8-es2017/src/_utils/xml-js-mapper');
  const { OPDS } = require('r2-opds-js/dist/es8-es2017/src/opds/opds1/opds');
  const { convertOpds1ToOpds2 } = require('r2-opds-js/dist/es8-es2017/src/opds/converter');
  const { TaJsonDeserialize } = require('r2-lcp-js/dist/es8-es2017/src/serializable');
  const { OPDSFeed } = require('r2-opds-js/dist/es8-es2017/src/opds/opds2/opds2');
  const { OPDSPublication } = require('r2-opds-js/dist/es8-es2017/src/opds/opds2/opds2-publication');
  const { OPDSAuthenticationDoc } = require('r2-opds-js/dist/es8-es2017/src/opds/opds2/opds2-authentication-doc');
  const { Publication } = require('r2-shared-js/dist/es8-es2017/src/models/publication');
  initGlobalConverters_OPDS();
  initGlobalConverters_GENERIC();

  const parseOpds1 = (xml: string) => XML.deserialize(new DOMParser().parseFromString(xml, 'application/xml'), OPDS);

  it('OPDS 1.2: every feed parses; the series feed converts to OPDS 2 with acquisition and stream links', async () => {
    for (const [name, route] of Object.entries(atomFeeds())) {
      const feed = parseOpds1((await call('GET', route)).text);
      expect(feed.Title, name).toBeTruthy();
    }
    const series = parseOpds1((await call('GET', `/opds/v1.2/series/${ids.series}`)).text);
    expect(series.Title).toBe('Saga');
    expect(series.Entries.map((e: any) => e.Title)).toEqual(['Chapter 1', 'Chapter 2']);
    const rels = series.Entries[0].Links.map((l: any) => l.Rel);
    expect(rels).toEqual(
      expect.arrayContaining([
        'http://opds-spec.org/acquisition',
        'http://opds-spec.org/image',
        'http://opds-spec.org/image/thumbnail',
        'http://vaemendis.net/opds-pse/stream',
      ]),
    );
    const converted = convertOpds1ToOpds2(series);
    const acquisition = converted.Publications[0].Links.find((l: any) =>
      l.Rel.includes('http://opds-spec.org/acquisition'),
    );
    expect(acquisition.TypeLink).toBe('application/vnd.comicbook+zip');
    expect(acquisition.Href).toBe(`${server.url}/api/v1/books/${ids['Chapter 1']}/file`);
  });

  it('collections, read lists and want-to-read: linked from the root, a read list in its own order', async () => {
    const root = parseOpds1((await call('GET', '/opds/v1.2/catalog')).text);
    expect(root.Entries.map((e: any) => e.Title)).toEqual(
      expect.arrayContaining(['Want to read', 'Collections', 'Read lists']),
    );
    const lists = parseOpds1((await call('GET', '/opds/v1.2/readlists')).text);
    expect(lists.Entries.map((e: any) => e.Title)).toEqual(['Backwards', 'Mixed']);
    const list = parseOpds1((await call('GET', `/opds/v1.2/readlists/${ids.readList}`)).text);
    expect(list.Entries.map((e: any) => e.Title)).toEqual(['Chapter 2', 'Chapter 1']);
    const converted = convertOpds1ToOpds2(list);
    expect(converted.Publications.map((p: any) => p.Metadata.Title)).toEqual(['Chapter 2', 'Chapter 1']);
    const collection = parseOpds1((await call('GET', `/opds/v1.2/collections/${ids.collection}`)).text);
    expect(collection.Entries.map((e: any) => e.Title)).toEqual(['Saga']);
    const queue = parseOpds1((await call('GET', '/opds/v1.2/want-to-read')).text);
    expect(queue.Entries.map((e: any) => e.Title)).toEqual(['Saga', 'Chapter 2', 'Plain Text']);

    const feed2 = TaJsonDeserialize(
      JSON.parse((await call('GET', `/opds/v2.0/readlists/${ids.readList}`)).text),
      OPDSFeed,
    );
    expect(feed2.Publications.map((p: any) => p.Metadata.Title)).toEqual(['Chapter 2', 'Chapter 1']);
    const collections2 = TaJsonDeserialize(JSON.parse((await call('GET', '/opds/v2.0/collections')).text), OPDSFeed);
    expect(collections2.Navigation.map((n: any) => n.Title)).toEqual(['Plain books', 'Space operas', 'Vaughan books']);
    const smart2 = TaJsonDeserialize(
      JSON.parse((await call('GET', `/opds/v2.0/collections/${ids.smart}`)).text),
      OPDSFeed,
    );
    expect(smart2.Publications.map((p: any) => p.Metadata.Title)).toEqual(['Chapter 1', 'Chapter 2']);
    const queue2 = TaJsonDeserialize(JSON.parse((await call('GET', '/opds/v2.0/want-to-read')).text), OPDSFeed);
    expect(queue2.Navigation.map((n: any) => n.Title)).toEqual(['Saga']);
    expect(queue2.Publications.map((p: any) => p.Metadata.Title)).toEqual(['Chapter 2', 'Plain Text']);
  });

  it('OPDS 2.0: every feed kind with a book without a cover reads whole, each publication with a raster image (issue 31 point 14)', async () => {
    const RASTER = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif']);
    const images = new Map<string, string>();
    for (const [name, route] of Object.entries(coverlessFeeds())) {
      const body = JSON.parse((await call('GET', route)).text);
      // r2-opds-js reports a publication without images on the console (what Thorium then drops).
      const said: string[] = [];
      const log = console.log;
      console.log = (...args: unknown[]) => said.push(args.join(' '));
      let feed: any;
      try {
        feed = TaJsonDeserialize(body, OPDSFeed);
      } finally {
        console.log = log;
      }
      expect(
        said.filter((line) => line.includes('is not set')),
        name,
      ).toEqual([]);
      expect(feed.Publications.length, name).toBeGreaterThan(0);
      for (const publication of feed.Publications) {
        const [image] = publication.Images ?? [];
        expect(RASTER.has(image?.TypeLink), `${name}: ${publication.Metadata.Title}`).toBe(true);
        images.set(image.Href, image.TypeLink);
      }
      const coverless = feed.Publications.filter((p: any) => p.Images[0].Href.includes('/placeholders/'));
      expect(coverless.length, `${name} has a book without a cover`).toBeGreaterThan(0);
    }
    // Every image answers what it declares, and decodes.
    for (const [href, type] of images) {
      const response = await fetch(href, { headers: { Authorization: auth } });
      expect([href, response.status, response.headers.get('Content-Type')]).toEqual([href, 200, type]);
      const decoded = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      expect(decoded.width, href).toBeGreaterThan(0);
    }
    expect([...images.keys()].filter((href) => href.endsWith('/placeholders/epub'))).toHaveLength(1);
  });

  it('OPDS-PSE attributes through opds-ts: pse:count, pse:lastRead (from 1), pse:lastReadDate', async () => {
    const { Feed } = require('opds-ts/v1.2');
    const parsed = await Feed.fromXml((await call('GET', `/opds/v1.2/series/${ids.series}`)).text);
    const stream = (entry: any) =>
      entry.options.links.find((l: any) => l.rel === 'http://vaemendis.net/opds-pse/stream');
    const first = stream(parsed.entries[0]);
    expect(first.type).toBe('image/png');
    expect(first.properties['pse:count']).toBe(3);
    expect(first.properties['pse:lastRead']).toBe(2);
    expect(Number.isNaN(Date.parse(first.properties['pse:lastReadDate']))).toBe(false);
    expect(stream(parsed.entries[1]).properties['pse:lastRead']).toBeUndefined();
  });

  it('OPDS 2.0 feeds, a publication, the authentication document and a DiViNa manifest', async () => {
    const catalog = TaJsonDeserialize(JSON.parse((await call('GET', '/opds/v2.0/catalog')).text), OPDSFeed);
    expect(catalog.Metadata.Title).toBe('Longbox');
    expect(catalog.Navigation.map((n: any) => n.Title)).toContain('All series');
    const seriesJson = JSON.parse((await call('GET', `/opds/v2.0/series/${ids.series}`)).text);
    const series = TaJsonDeserialize(seriesJson, OPDSFeed);
    expect(series.Publications).toHaveLength(2);
    const publication = series.Publications[0];
    expect(publication.Metadata.Title).toBe('Chapter 1');
    const links = publication.Links.map((l: any) => [l.Rel?.[0], l.TypeLink]);
    expect(links).toContainEqual(['http://opds-spec.org/acquisition', 'application/vnd.comicbook+zip']);
    expect(links).toContainEqual(['alternate', 'application/divina+json']);

    const self = publication.Links.find((l: any) => l.Rel?.includes('self'));
    const single = TaJsonDeserialize(
      JSON.parse(await fetch(self.Href, { headers: { Authorization: auth } }).then((r) => r.text())),
      OPDSPublication,
    );
    expect(single.Metadata.Title).toBe('Chapter 1');

    const unauthenticated = await fetch(`${server.url}/opds/v2.0/catalog`);
    expect(unauthenticated.status).toBe(401);
    const authDoc = TaJsonDeserialize(await unauthenticated.json(), OPDSAuthenticationDoc);
    expect(authDoc.Id).toBe(`${server.url}/opds/v2.0/auth`);
    expect(authDoc.Authentication[0].Type).toBe('http://opds-spec.org/auth/basic');
    expect(authDoc.Authentication[0].Labels.Login).toBeTruthy();

    const manifestLink = publication.Links.find((l: any) => l.TypeLink === 'application/divina+json');
    const manifestRes = await fetch(manifestLink.Href, { headers: { Authorization: auth } });
    expect(manifestRes.headers.get('Content-Type')).toBe('application/divina+json');
    const manifest = TaJsonDeserialize(await manifestRes.json(), Publication);
    expect(manifest.Metadata.Title).toBe('Chapter 1');
    expect(manifest.Spine).toHaveLength(3);
    expect(manifest.Spine.map((l: any) => [l.TypeLink, l.Width, l.Height])).toEqual([
      ['image/png', 80, 120],
      ['image/png', 80, 120],
      ['image/png', 80, 120],
    ]);
    const page = await fetch(manifest.Spine[2].Href, { headers: { Authorization: auth } });
    expect(page.status).toBe(200);
    expect(page.headers.get('Content-Type')).toBe('image/png');
  });

  it("a reader opening an OPDS 2 publication's first manifest-typed link gets its pages (issue 22)", async () => {
    // What several OPDS 2 clients do: take the first link whose type is a manifest type. `self` is one of
    // those types, so the DiViNa manifest must come before it.
    const MANIFEST_TYPES = ['application/opds-publication+json', 'application/divina+json', 'application/webpub+json'];
    const series = TaJsonDeserialize(JSON.parse((await call('GET', `/opds/v2.0/series/${ids.series}`)).text), OPDSFeed);
    for (const publication of series.Publications) {
      const first = publication.Links.find((l: any) => MANIFEST_TYPES.includes(l.TypeLink));
      expect(first.TypeLink).toBe('application/divina+json');
      const manifest = TaJsonDeserialize(
        await fetch(first.Href, { headers: { Authorization: auth } }).then((r) => r.json()),
        Publication,
      );
      expect(manifest.Spine.length).toBe(publication.Metadata.NumberOfPages);
      for (const link of manifest.Spine) {
        const page = await fetch(link.Href, { headers: { Authorization: auth } });
        expect(page.status).toBe(200);
        expect(page.headers.get('Content-Type')).toBe(link.TypeLink);
      }
    }
  });
});

/**
 * The Palace Project's parser (PyPI `palace-webpub-manifest-parser`, what the Palace apps' server side runs),
 * installed from PyPI into a virtual environment under this test's temporary directory. It requires
 * `images` on every publication (issue 31 point 14).
 */
const PALACE_PARSER = 'palace-webpub-manifest-parser==4.1.0';
const venv = path.join(work, 'palace-venv');
const python = spawnSync('python3', ['-c', 'import venv, ensurepip'], { encoding: 'utf8' });
const HAS_PYTHON = python.error === undefined && python.status === 0;
if (!HAS_PYTHON) {
  console.warn(
    `python3 with venv and pip is not installed: the Palace parser check is skipped (apt-get install python3 python3-venv, then the test runs pip install ${PALACE_PARSER})`,
  );
}

describe.skipIf(!HAS_PYTHON)('the Palace parser (palace-webpub-manifest-parser) reads the OPDS 2.0 feeds', () => {
  beforeAll(() => {
    const made = spawnSync('python3', ['-m', 'venv', venv], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`python3 -m venv failed: ${made.stderr}`);
    const pip = spawnSync(
      path.join(venv, 'bin', 'pip'),
      ['install', '--quiet', '--disable-pip-version-check', PALACE_PARSER],
      {
        encoding: 'utf8',
        timeout: 170_000,
      },
    );
    if (pip.status !== 0) throw new Error(`pip install ${PALACE_PARSER} failed: ${pip.stderr || pip.error}`);
  }, 180_000);

  /** Parses the files with OPDS2FeedParserFactory and answers each file's errors. */
  function palaceErrors(files: string[]): Record<string, string[]> {
    const script = [
      'import json, sys',
      'from webpub_manifest_parser.opds2 import OPDS2FeedParserFactory',
      'out = {}',
      'for name in sys.argv[1:]:',
      '    result = OPDS2FeedParserFactory().create().parse_file(name)',
      '    out[name] = [str(error) for error in result.errors]',
      'print(json.dumps(out))',
    ].join('\n');
    const run = spawnSync(path.join(venv, 'bin', 'python'), ['-c', script, ...files], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`the Palace parser failed: ${run.stderr}`);
    return JSON.parse(run.stdout);
  }

  it('every feed kind with a book without a cover parses without an error', async () => {
    const files: Record<string, string> = {};
    for (const [name, route] of Object.entries(coverlessFeeds())) {
      const response = await call('GET', route);
      expect(response.status, route).toBe(200);
      const file = path.join(work, `palace-${name.replace(/\W+/g, '-')}.json`);
      writeFileSync(file, response.text);
      files[file] = name;
    }
    const errors = palaceErrors(Object.keys(files));
    for (const [file, name] of Object.entries(files)) expect(errors[file], name).toEqual([]);
  });

  it('the check can fail: the same feed with a publication stripped of its images is refused', async () => {
    const feed = JSON.parse((await call('GET', coverlessFeeds()['library books'])).text);
    delete feed.publications[0].images;
    const file = path.join(work, 'palace-no-images.json');
    writeFileSync(file, JSON.stringify(feed));
    expect(palaceErrors([file])[file]?.join('\n')).toContain('images');
  });
});
