// Page-image pipeline of the renderer worker (renderer/, issue 4) against sharp (libvips) in Node on the
// same comic-like page, in the same run: 1988×3056 JPEG q88 4:2:0 → 800 px wide JPEG q80 and lossy WebP
// q80 (targets: ≤ 2× sharp's time, ≤ 1.2× its bytes), plus PNG and a 400 px thumbnail for reference.
// The renderer runs in workerd under `wrangler dev` with its bench-only route enabled; each request is
// timed from Node (workerd's clocks stand still during computation). Also reports the wasm memory the
// codecs hold and the gzip size of both workers' bundles.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { mulberry32 } from './lib/prng.ts';
import { environmentLines, markdownTable, ROOT, summarize, writeSection } from './lib/report.mjs';
import { sized } from './lib/smoke.mjs';
import { removeDir, startWranglerDev, tempStateDir } from './lib/wrangler-dev.mjs';

const ROUNDS = sized(9, 1);
const WARMUP = sized(2, 0);
const WIDTH = 1988;
const HEIGHT = 3056;

/** A comic page: panels with flat fills and gradients, halftone dots, line art, balloons with text. */
function pageSvg(rand) {
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">`,
    '<defs><pattern id="dots" width="14" height="14" patternUnits="userSpaceOnUse"><circle cx="7" cy="7" r="4" fill="#333"/></pattern>',
    '<linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#5a8fd8"/><stop offset="1" stop-color="#f3d9a4"/></linearGradient>',
    '<radialGradient id="glow"><stop offset="0" stop-color="#fff6c0"/><stop offset="1" stop-color="#d2562b"/></radialGradient></defs>',
    '<rect width="100%" height="100%" fill="#fbf8f0"/>',
  ];
  const rows = [0, 780, 1560, 2300, HEIGHT - 60];
  for (let r = 0; r < rows.length - 1; r++) {
    const cut = 500 + Math.floor(rand() * 900);
    for (const [x0, x1] of [
      [60, cut - 20],
      [cut + 20, WIDTH - 60],
    ]) {
      const y0 = rows[r] + 60;
      const y1 = rows[r + 1];
      const fill = ['url(#sky)', 'url(#glow)', '#e8c07a', 'url(#dots)', '#9cc3a0'][Math.floor(rand() * 5)];
      parts.push(
        `<rect x="${x0}" y="${y0}" width="${x1 - x0}" height="${y1 - y0}" fill="${fill}" stroke="#111" stroke-width="8"/>`,
      );
      for (let i = 0; i < 14; i++) {
        const ax = x0 + rand() * (x1 - x0);
        const ay = y0 + rand() * (y1 - y0);
        const bx = x0 + rand() * (x1 - x0);
        const by = y0 + rand() * (y1 - y0);
        parts.push(
          `<path d="M${ax} ${ay} Q${(ax + bx) / 2 + 80} ${(ay + by) / 2 - 60} ${bx} ${by}" stroke="#151515" stroke-width="${2 + rand() * 5}" fill="none"/>`,
        );
      }
      const cx = x0 + 60 + rand() * (x1 - x0 - 400);
      const cy = y0 + 60 + rand() * 120;
      parts.push(
        `<ellipse cx="${cx + 170}" cy="${cy + 60}" rx="190" ry="80" fill="#fff" stroke="#111" stroke-width="5"/>`,
      );
      parts.push(
        `<text x="${cx + 40}" y="${cy + 55}" font-family="sans-serif" font-size="34" font-weight="bold">WHAT WAS THAT?!</text>`,
      );
      parts.push(
        `<text x="${cx + 60}" y="${cy + 95}" font-family="sans-serif" font-size="28">Over there — look!</text>`,
      );
    }
  }
  parts.push('</svg>');
  return parts.join('');
}

/** The test page as a scanner would deliver it: ±3 paper noise, JPEG q88 4:2:0. */
async function makePage() {
  const rand = mulberry32(42);
  const { data, info } = await sharp(Buffer.from(pageSvg(rand)))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  for (let i = 0; i < data.length; i++) data[i] = Math.max(0, Math.min(255, data[i] + Math.floor(rand() * 7) - 3));
  return sharp(data, { raw: info }).jpeg({ quality: 88, chromaSubsampling: '4:2:0', mozjpeg: false }).toBuffer();
}

async function viaRenderer(url, page, query) {
  const started = process.hrtime.bigint();
  const res = await fetch(`${url}/__bench/transform?${query}`, { method: 'POST', body: page });
  const body = await res.arrayBuffer();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.status !== 200) throw new Error(`renderer answered ${res.status}: ${Buffer.from(body).toString()}`);
  return { ms, bytes: body.byteLength, width: Number(res.headers.get('x-width')) };
}

async function viaSharp(page, apply) {
  const started = process.hrtime.bigint();
  const { data, info } = await apply(sharp(page)).toBuffer({ resolveWithObject: true });
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, bytes: data.byteLength, width: info.width };
}

/** `wrangler deploy --dry-run --outdir` of one worker: its reported total and gzip size in KiB. */
function bundleSize(config) {
  const outdir = tempStateDir('bundle');
  try {
    const wrangler = path.join(ROOT, 'node_modules/wrangler/bin/wrangler.js');
    const run = spawnSync(process.execPath, [wrangler, 'deploy', '--dry-run', '--outdir', outdir, '-c', config], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false' },
    });
    const match = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(run.stdout);
    if (!match) throw new Error(`no size in wrangler output:\n${run.stdout}\n${run.stderr}`);
    return { total: Number(match[1]), gzip: Number(match[2]) };
  } finally {
    removeDir(outdir);
  }
}

const JOBS = [
  {
    label: '800 px wide JPEG q80',
    query: 'width=800&format=jpeg&quality=80',
    sharp: (s) => s.resize({ width: 800 }).jpeg({ quality: 80, chromaSubsampling: '4:2:0', mozjpeg: false }),
    codecs: ['jpeg-turbo-decoder', 'libjpeg-turbo-encoder'],
    target: true,
  },
  {
    label: '800 px wide WebP q80 (lossy)',
    query: 'width=800&format=webp&quality=80',
    sharp: (s) => s.resize({ width: 800 }).webp({ quality: 80 }),
    codecs: ['jpeg-turbo-decoder', 'webp-encoder'],
    target: true,
  },
  {
    label: '800 px wide PNG',
    query: 'width=800&format=png',
    sharp: (s) => s.resize({ width: 800 }).png(),
    codecs: ['jpeg-turbo-decoder', 'png-codec'],
  },
  {
    label: 'thumbnail 400 px high JPEG q80',
    query: 'height=400&format=jpeg&quality=80',
    sharp: (s) => s.resize({ height: 400 }).jpeg({ quality: 80, chromaSubsampling: '4:2:0', mozjpeg: false }),
    codecs: ['jpeg-turbo-decoder', 'libjpeg-turbo-encoder'],
  },
];

const kib = (bytes) => Math.round(bytes).toLocaleString('en-US');
const num = (value) => value.toFixed(1);

async function main() {
  sharp.concurrency(1);
  const page = await makePage();
  const state = tempStateDir('image-pipeline');
  let worker;
  try {
    worker = await startWranglerDev({
      config: path.join(ROOT, 'renderer/wrangler.toml'),
      persistTo: state,
      readyPath: '/__bench/memory',
      vars: { LONGBOX_RENDERER__BENCH_ROUTE: 'true' },
    });
    // Reference: the same upload and download with nothing to do (same size and format → original bytes).
    const reference = {
      label: 'reference: upload + probe + download, no transcode',
      query: `width=${WIDTH}&format=jpeg`,
    };
    const all = [reference, ...JOBS];
    for (let i = 0; i < WARMUP; i++) {
      for (const job of all) await viaRenderer(worker.url, page, job.query);
      for (const job of JOBS) await viaSharp(page, job.sharp);
    }
    const samples = new Map(all.map((job) => [job, { renderer: [], sharp: [] }]));
    const outputs = new Map();
    // Interleaved rounds, so drift on a shared machine hits every row alike.
    for (let i = 0; i < ROUNDS; i++) {
      for (const job of all) {
        const ours = await viaRenderer(worker.url, page, job.query);
        samples.get(job).renderer.push(ours.ms);
        outputs.set(job, { ...outputs.get(job), renderer: ours });
        if (!job.sharp) continue;
        const theirs = await viaSharp(page, job.sharp);
        samples.get(job).sharp.push(theirs.ms);
        outputs.set(job, { ...outputs.get(job), sharp: theirs });
      }
    }
    const memory = await (await fetch(`${worker.url}/__bench/memory`)).json();

    const rows = all.map((job) => {
      const ours = summarize(samples.get(job).renderer);
      const out = outputs.get(job);
      if (!job.sharp) return [job.label, num(ours.median), '—', '—', kib(out.renderer.bytes), '—', '—', '—', '—'];
      const theirs = summarize(samples.get(job).sharp);
      const timeRatio = ours.median / theirs.median;
      const sizeRatio = out.renderer.bytes / out.sharp.bytes;
      const wasm = job.codecs.reduce((sum, codec) => sum + (memory[codec] ?? 0), 0) / 1024 ** 2;
      const verdict = !job.target ? 'reference only' : timeRatio <= 2 && sizeRatio <= 1.2 ? 'meets' : 'MISSES';
      return [
        job.label,
        num(ours.median),
        num(theirs.median),
        `${timeRatio.toFixed(2)}×`,
        kib(out.renderer.bytes),
        kib(out.sharp.bytes),
        `${sizeRatio.toFixed(2)}×`,
        num(wasm),
        verdict,
      ];
    });
    const table = markdownTable(
      [
        'job (1988×3056 page)',
        'renderer median ms',
        'sharp median ms',
        'time ratio',
        'renderer bytes',
        'sharp bytes',
        'size ratio',
        'wasm MiB',
        'target ≤2× time, ≤1.2× bytes',
      ],
      rows,
    );
    const api = bundleSize(path.join(ROOT, 'wrangler.toml'));
    const renderer = bundleSize(path.join(ROOT, 'renderer/wrangler.toml'));
    const bundles = markdownTable(
      ['worker', 'total KiB', 'gzip KiB'],
      [
        ['API worker (wrangler.toml)', kib(api.total), kib(api.gzip)],
        ['renderer (renderer/wrangler.toml)', kib(renderer.total), kib(renderer.gzip)],
      ],
    );
    const memoryLines = Object.entries(memory)
      .map(([codec, bytes]) => `${codec} ${num(bytes / 1024 ** 2)} MiB`)
      .join(', ');
    writeSection(
      'Image pipeline (renderer worker)',
      [
        `Input: a synthetic comic page (panels, flat fills, gradients, halftone, line art, balloons with text, ±3 noise),`,
        `${WIDTH}×${HEIGHT}, JPEG q88 4:2:0, ${kib(page.byteLength)} bytes (bench/image-pipeline.bench.mjs makes it with sharp).`,
        'Renderer: POST to its bench-only route in workerd under `wrangler dev` (renderer/src/bench-route.ts), timed from',
        'Node; every renderer time includes uploading the page and downloading the result, shown by the reference row. sharp 0.35 in the bench',
        `process with concurrency(1), interleaved with the renderer. ${WARMUP} warm-up rounds, then ${ROUNDS}.`,
        'Renderer pipeline: libjpeg-turbo DCT-scaled decode (k/8) → JS triangle resize → libjpeg-turbo baseline 4:2:0',
        '/ libwebp lossy method 4 / PNG. sharp: shrink-on-load + lanczos3, libjpeg-turbo / libwebp effort 4 / libspng.',
        '"wasm MiB" = linear memory of the codecs that job uses, after all rounds (it never shrinks, so it is their peak).',
        '',
        table,
        '',
        `Wasm memory per codec at the end: ${memoryLines}.`,
        '',
        'Bundles (`wrangler deploy --dry-run --outdir`, as wrangler reports them):',
        '',
        bundles,
        '',
        ...environmentLines('npm run bench -- image-pipeline'),
      ].join('\n'),
    );
    console.log(table);
    console.log(bundles);
  } finally {
    await worker?.stop();
    removeDir(state);
  }
}

mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
await main();
