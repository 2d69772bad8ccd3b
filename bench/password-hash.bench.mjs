// Password hashing cost inside workerd (DECISIONS.md §Auth): Longbox's argon2id at ARGON2_PARAMS
// (src/auth/password.ts) against scrypt N=2^15 from @noble/hashes as a reference, one hash per request
// to a bench-only worker under `wrangler dev`, timed from outside (workerd's clocks stand still
// during computation).
import path from 'node:path';
import { environmentLines, markdownTable, ms, ROOT, summarize, writeSection } from './lib/report.mjs';
import { sized } from './lib/smoke.mjs';
import { removeDir, startWranglerDev, tempStateDir } from './lib/wrangler-dev.mjs';

const ROUNDS = sized(30, 2);
const WARMUP = sized(3, 1);
const CONFIG = path.join(ROOT, 'bench/workers/password-hash.toml');
const KINDS = ['noop', 'argon2id', 'scrypt'];

async function timed(url) {
  const started = process.hrtime.bigint();
  const res = await fetch(url);
  await res.arrayBuffer();
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return elapsed;
}

async function main() {
  const state = tempStateDir('password-hash');
  let worker;
  try {
    worker = await startWranglerDev({ config: CONFIG, persistTo: state, readyPath: '/noop' });
    const params = await (await fetch(`${worker.url}/params`)).json();
    const check = await (await fetch(`${worker.url}/check`)).json();
    if (!check.verifies) throw new Error(`hashPassword output does not verify: ${JSON.stringify(check)}`);

    for (let i = 0; i < WARMUP; i++) for (const kind of KINDS) await timed(`${worker.url}/${kind}`);
    const samples = Object.fromEntries(KINDS.map((k) => [k, []]));
    // Interleaved rounds, so drift on a shared machine hits every kind alike.
    for (let i = 0; i < ROUNDS; i++) for (const kind of KINDS) samples[kind].push(await timed(`${worker.url}/${kind}`));

    const stats = Object.fromEntries(KINDS.map((k) => [k, summarize(samples[k])]));
    const overhead = stats.noop.median;
    const { m, t, p, dkLen } = params.argon2id;
    const { N, r, p: sp, dkLen: sLen } = params.scrypt;
    const row = (label, parameters, s, net = ms(s.median - overhead)) => [
      label,
      parameters,
      ms(s.median),
      ms(s.p95),
      ms(s.min),
      ms(s.max),
      net,
      String(s.n),
    ];
    const table = markdownTable(
      ['hash (one per request)', 'parameters', 'median ms', 'p95 ms', 'min ms', 'max ms', 'median − overhead ms', 'n'],
      [
        row(
          '**argon2id** (Longbox, hashPassword)',
          `m=${m} KiB (${(m / 1024).toFixed(0)} MiB), t=${t}, p=${p}, ${dkLen}-byte key`,
          stats.argon2id,
        ),
        row(
          'scrypt (@noble/hashes, reference)',
          `N=2^${Math.log2(N)}, r=${r}, p=${sp}, ${sLen}-byte key`,
          stats.scrypt,
        ),
        row('request overhead (no hash)', '—', stats.noop, '—'),
      ],
    );
    const body = [
      `Longbox stores passwords as argon2id PHC strings at \`ARGON2_PARAMS\` (src/auth/password.ts): **${check.phc}**.`,
      'One hash per request to a bench-only worker (bench/workers/password-hash.ts) running in workerd under',
      '`wrangler dev`; each request is timed from Node over loopback, because clocks inside workerd do not advance',
      `during computation. ${WARMUP} warm-up rounds, then ${ROUNDS} interleaved rounds of every row. A login or an`,
      'uncached HTTP Basic check costs one such hash (verifying costs the same as hashing).',
      '',
      table,
      '',
      ...environmentLines('npm run bench -- password-hash'),
    ].join('\n');
    writeSection('Password hashing in workerd', body);
    console.log(table);
  } finally {
    await worker?.stop();
    removeDir(state);
  }
}

await main();
