// A page streamed to a reader app at its screen width (issue 9, Performance): OPDS-PSE
// `/opds/v1.2/books/{id}/pages/{n}?width=600` for each page of a CBZ of 1600×2400 JPEG pages, asked twice.
// The first answer is resized by the renderer and stored in the CACHE bucket; the second must cost no
// image work: it is that cached rendition (`X-Longbox-Cache: hit`). Reference in the same run: the
// original page (no width), which never needs image work. Real API and renderer workers (`wrangler dev`),
// HTTP Basic `api:<key>` as the apps send it. Each streamed page also moves the reader's progress.
import os from 'node:os';
import path from 'node:path';
import { zipSync } from 'fflate';
import sharp from 'sharp';
import { environmentLines, markdownTable, percentile, writeSection } from './lib/report.mjs';
import { sized } from './lib/smoke.mjs';
import { snapshotSources } from './lib/source-snapshot.mjs';
import { applyMigrations, removeDir, startWranglerDev, tempStateDir } from './lib/wrangler-dev.mjs';

const PAGES = sized(12, 2);
const ADMIN = { username: 'bench-admin', email: 'bench@example.com', password: 'bench-password-42' };

async function json(url, init) {
  const res = await fetch(url, init);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function comic() {
  const files = {};
  for (let i = 1; i <= PAGES; i++) {
    const image = await sharp({
      create: { width: 1600, height: 2400, channels: 3, noise: { type: 'gaussian', mean: 40 + i * 10, sigma: 40 } },
    })
      .jpeg({ quality: 85 })
      .toBuffer();
    files[`${String(i).padStart(3, '0')}.jpg`] = [new Uint8Array(image), { level: 0 }];
  }
  return zipSync(files);
}

async function timed(url, headers) {
  const started = process.hrtime.bigint();
  const res = await fetch(url, { headers });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.status !== 200)
    throw new Error(`${url} answered ${res.status}: ${new TextDecoder().decode(bytes).slice(0, 300)}`);
  const meta = await sharp(bytes).metadata();
  return { ms, cache: res.headers.get('X-Longbox-Cache') ?? '—', width: meta.width, bytes: bytes.length };
}

async function main() {
  const state = tempStateDir('pse-page');
  let worker;
  try {
    const configs = snapshotSources(path.join(state, 'sources'));
    const data = path.join(state, 'data');
    applyMigrations(configs.api, data);
    worker = await startWranglerDev({
      config: [configs.api, configs.renderer],
      persistTo: data,
      readyPath: '/api/v1/health',
      vars: { LONGBOX_LOG__LEVEL: 'warn' },
    });
    const api = `${worker.url}/api/v1`;
    const post = (body, token) => ({
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    const setup = await json(`${api}/setup/initialize`, post(ADMIN));
    const token = setup.body.access_token;
    const library = (await json(`${api}/libraries`, post({ name: 'Comics', path: 'comics' }, token))).body;
    const upload = await fetch(`${api}/libraries/${library.id}/files/Saga/Saga%20001.cbz`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream' },
      body: await comic(),
    });
    if (upload.status !== 201) throw new Error(`upload failed: ${upload.status} ${await upload.text()}`);
    await fetch(`${api}/libraries/${library.id}/scan?mode=normal`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
    });
    for (let i = 0; i < 600; i++) {
      const status = (
        await json(`${api}/libraries/${library.id}/scan-status`, { headers: { Authorization: `Bearer ${token}` } })
      ).body;
      if (status.status !== 'running' && status.status !== 'pending') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const book = (
      await json(`${api}/books?library_id=${library.id}`, { headers: { Authorization: `Bearer ${token}` } })
    ).body.data[0];
    const key = (await json(`${api}/api-keys`, post({ name: 'KOReader' }, token))).body.key;
    const basic = { Authorization: `Basic ${Buffer.from(`api:${key}`).toString('base64')}` };
    const page = (n, width) => `${worker.url}/opds/v1.2/books/${book.id}/pages/${n}${width ? `?width=${width}` : ''}`;

    // Warm the isolate and the key's auth path on a page outside the measured ones' renditions.
    await timed(page(0), basic);
    const original = [];
    const first = [];
    const second = [];
    let peakLoad = os.loadavg()[0];
    for (let n = 0; n < PAGES; n++) {
      original.push(await timed(page(n), basic));
      first.push(await timed(page(n, 600), basic));
      second.push(await timed(page(n, 600), basic));
      peakLoad = Math.max(peakLoad, os.loadavg()[0]);
    }
    const row = (label, results) => [
      label,
      [...new Set(results.map((r) => r.cache))].join(', '),
      [...new Set(results.map((r) => r.width))].join(', '),
      Math.round(
        percentile(
          results.map((r) => r.bytes),
          50,
        ),
      ).toLocaleString('en-US'),
      percentile(
        results.map((r) => r.ms),
        50,
      ).toFixed(1),
      Math.max(...results.map((r) => r.ms)).toFixed(1),
      String(results.length),
    ];
    const table = markdownTable(
      ['request', 'X-Longbox-Cache', 'width px', 'median bytes', 'p50 ms', 'max ms', 'n'],
      [
        row('original page, no width (reference: no image work)', original),
        row('`{maxWidth}`=600, first request (resized by the renderer)', first),
        row('`{maxWidth}`=600, second request (the cached rendition)', second),
      ],
    );
    const allHits = second.every((r) => r.cache === 'hit');
    const allMisses = first.every((r) => r.cache === 'miss');
    writeSection(
      'OPDS-PSE page at maxWidth=600, twice',
      [
        `A CBZ of ${PAGES} JPEG pages of 1600×2400 px; each page is asked for through its OPDS-PSE URL as KOReader`,
        'fills it in (`{pageNumber}` from 0, `{maxWidth}` = 600), twice in a row, after the original page. Real API',
        'and renderer workers (`wrangler dev`, local R2), HTTP Basic `api:<key>`, sequential, timed from Node.',
        '',
        table,
        '',
        allHits && allMisses
          ? `Every first request was rendered (\`miss\`) and every second one answered from the CACHE bucket (\`hit\`): no image work the second time.`
          : '**Not every second request was a cache hit** (see the table).',
        '',
        `Load: 1-minute load average up to ${peakLoad.toFixed(2)} on ${os.availableParallelism()} CPUs (the machine was shared with other work).`,
        '',
        ...environmentLines('npm run bench -- pse-page'),
      ].join('\n'),
    );
    console.log(table);
    if (!allHits || !allMisses) process.exitCode = 1;
  } finally {
    await worker?.stop();
    removeDir(state);
  }
}

await main();
