// Release polling at scale (issue 32): 10,000 tracked series (the 100,000-book catalog of catalog-queries,
// every live series tracked with a MangaUpdates and an AniList id: bench/lib/seed-tracking.mjs) polled through
// Longbox as `npm start` runs it — the cron's dispatcher claiming due polls onto the release-poll queue, the
// longbox-jobs consumers asking the fake providers (test/support/provider-fakes, the vendored example answers,
// in a Node process of its own at low priority, as remote services are not on the server's CPUs) and recording
// what they learn. Reports wall time, queue operations and D1 statements per series, and a reader's
// GET /series latency while polls run against the same request between their bursts, in the same run (target:
// p99 within 1.2× of idle).
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { BENCH_ADMIN } from './lib/admin-client.mjs';
import { fetchJson, postJson, seedLargeCatalog } from './lib/large-catalog.mjs';
import { readFileSync } from 'node:fs';
import { stackProcesses, startLongbox } from './lib/longbox-stack.mjs';
import { environmentLines, markdownTable, percentile, ROOT, writeSection } from './lib/report.mjs';
import { SMOKE, sized } from './lib/smoke.mjs';
import { snapshotSources } from './lib/source-snapshot.mjs';
import { applyMigrations, killOnInterrupt, removeDir, tempStateDir } from './lib/wrangler-dev.mjs';

const READER = { username: 'bench-reader', email: 'reader@example.com', password: 'bench-password-43' };
const RATIO = 1.2;
/**
 * `--pace-ms=N`: the least time between two requests to one provider (`LONGBOX_RELEASES__<KEY>_MIN_INTERVAL_MS`).
 * Longbox keeps to each provider's published rate limit (MangaUpdates 1 s, AniList 2 s a request), so real polls
 * trickle; the default, 10 ms, is still 100× and 200× faster than those limits, and 0 (no pace at all) makes the
 * consumers go as fast as this machine lets them: a test of throughput, not a load a deployment can meet.
 */
const PACE_MS = Number(process.argv.find((a) => a.startsWith('--pace-ms='))?.slice('--pace-ms='.length) ?? 10);
const WARMUP = sized(30, 2);
const IDLE_ROUNDS = sized(300, 5);
const POLL_TIMEOUT_MS = sized(30 * 60_000, 5 * 60_000);
/** Polls per source and cron tick: about half a minute of work, then half a minute idle. */
const TICK = sized(1000, 100);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The fake providers in a Node process of their own, at the lowest priority: they stand for services on
 * other machines, so they should take CPU from nothing Longbox runs. Resolves with their variables.
 */
function startFakes() {
  const script = `import { startFakeProviders } from ${JSON.stringify(path.join(ROOT, 'test/support/provider-fakes/node-server.mjs'))};
    const fakes = await startFakeProviders(${JSON.stringify(ROOT)});
    console.log(JSON.stringify({ url: fakes.url, vars: fakes.vars }));`;
  const child = spawn('nice', ['-n', '19', process.execPath, '--input-type=module', '-e', script], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.once('exit', killOnInterrupt(child.pid));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve({ ...JSON.parse(line), pid: child.pid, stop: () => process.kill(-child.pid, 'SIGTERM') });
    });
    child.once('exit', (code) => reject(new Error(`the fake providers exited (${code})`)));
  });
}

/** CPU seconds a process has used (utime + stime of /proc/<pid>/stat), or null once it is gone. */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

async function timedGet(url, token) {
  const started = process.hrtime.bigint();
  const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const row = (label, samples) => [
  label,
  String(samples.length),
  percentile(samples, 50).toFixed(1),
  percentile(samples, 95).toFixed(1),
  percentile(samples, 99).toFixed(1),
  Math.max(...samples).toFixed(1),
];

async function main() {
  const benchStarted = Date.now();
  /** Seconds since the bench started, for the phase lines (a smoke run must stay well inside its time limit). */
  const elapsed = () => `${((Date.now() - benchStarted) / 1000).toFixed(1)} s`;
  const state = tempStateDir('release-poll');
  let stack;
  let fakes;
  try {
    const sources = snapshotSources(path.join(state, 'sources'));
    const data = path.join(state, 'data');
    applyMigrations(sources.api, data);
    // 1. The catalog, a reader; 2. every live series tracked, straight into the D1 file.
    const { database, seeded } = await seedLargeCatalog({
      config: sources.api,
      persistTo: data,
      state,
      prepare: async (api, token) => {
        const reader = await fetchJson(`${api}/users`, postJson({ ...READER, role: 'reader' }, token));
        if (reader.status !== 201) throw new Error(`reader creation failed: ${JSON.stringify(reader)}`);
      },
    });
    const seedRun = spawn(process.execPath, ['bench/lib/seed-tracking.mjs', database], { cwd: ROOT });
    let seedOut = '';
    seedRun.stdout.on('data', (chunk) => (seedOut += chunk));
    await new Promise((resolve, reject) =>
      seedRun.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`seed-tracking failed (${code})`)))),
    );
    const tracked = JSON.parse(seedOut.trim().split('\n').at(-1));
    console.log(elapsed(), 'catalog', seeded, 'tracked', tracked);

    // 3. The fake providers, then Longbox as `npm start` runs it, pointed at them at the chosen pace.
    fakes = await startFakes();
    stack = await startLongbox({
      sources,
      data,
      env: {
        ...fakes.vars,
        LONGBOX_RELEASES__MANGAUPDATES_MIN_INTERVAL_MS: String(PACE_MS),
        LONGBOX_RELEASES__ANILIST_MIN_INTERVAL_MS: String(PACE_MS),
        LONGBOX_RELEASES__POLLS_PER_TICK: String(TICK),
      },
    });
    console.log(elapsed(), 'npm start is up');
    const api = `${stack.url}/api/v1`;
    const signIn = async (user) => {
      const login = await fetchJson(
        `${api}/auth/login`,
        postJson({ username: user.username, password: user.password }),
      );
      if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login)}`);
      return login.body.access_token;
    };
    const adminToken = await signIn(BENCH_ADMIN);
    const readerToken = await signIn(READER);
    const seriesUrl = `${api}/series?sort=name`;

    // Where the CPU goes: every second, the CPU time of each of the stack's processes and the fakes'.
    const processes = [
      ...stackProcesses(stack.pid).filter((p) => p.kind !== 'other'),
      { pid: fakes.pid, role: 'providers', kind: 'fake' },
    ];
    const cpuSamples = [];
    const sampleCpu = () => cpuSamples.push({ at: Date.now(), cpu: processes.map((p) => cpuSeconds(p.pid) ?? 0) });
    sampleCpu();
    const cpuTimer = setInterval(sampleCpu, 1000);

    // 4. The reader's GET /series, idle, before any poll.
    for (let i = 0; i < WARMUP; i++) await timedGet(seriesUrl, readerToken);
    const before = [];
    for (let i = 0; i < IDLE_ROUNDS; i++) before.push({ at: Date.now(), ms: await timedGet(seriesUrl, readerToken) });

    // 5. Every tracked series due at both sources: poll-now-all queues the first TICK polls of each source, each
    // minute's cron tick the next ones (start.mjs ticks the cron). The same request runs back to back all along;
    // each sample is then classed by when it started: inside a burst of polls, or between bursts (idle), so
    // busy and idle samples are taken through the same minutes of a shared machine.
    const expectedPolls = tracked.tracked * tracked.sources;
    const pollsOf = (batches) =>
      batches.filter((b) => b.job === 'release poll').reduce((n, b) => n + b.polled + b.failed + b.skipped, 0);
    const started = Date.now();
    const kicked = await fetchJson(`${api}/release-sources/poll-now-all`, postJson({}, adminToken));
    if (kicked.status !== 202)
      throw new Error(`poll-now-all answered ${kicked.status}: ${JSON.stringify(kicked.body)}`);
    const samples = [];
    let peakLoad = 0;
    while (pollsOf(stack.batches) < expectedPolls) {
      if (Date.now() - started > POLL_TIMEOUT_MS) {
        throw new Error(
          `only ${pollsOf(stack.batches)} of ${expectedPolls} polls after ${POLL_TIMEOUT_MS} ms:\n${stack.tail()}`,
        );
      }
      samples.push({ at: Date.now(), ms: await timedGet(seriesUrl, readerToken) });
      peakLoad = Math.max(peakLoad, os.loadavg()[0]);
      if (samples.length % 50 === 0) await sleep(0);
    }
    clearInterval(cpuTimer);
    sampleCpu();
    console.log(elapsed(), 'polls done');
    const batches = stack.batches.filter((b) => b.job === 'release poll');
    const wallMs = Math.max(...batches.map((b) => b.at)) - started;
    // Bursts: from each dispatch ("queued polls") until the consumers have done as many polls as were queued.
    const dispatches = stack.queued.filter((q) => q.job === 'release poll').sort((a, b) => a.at - b.at);
    const bursts = [];
    let queuedSoFar = 0;
    for (const dispatch of dispatches) {
      queuedSoFar += dispatch.polls;
      let done = 0;
      const end = batches.find((b) => {
        done += b.polled + b.failed + b.skipped;
        return done >= queuedSoFar;
      });
      bursts.push({ from: dispatch.at, to: end?.at ?? Date.now() });
    }
    const busyMs = bursts.reduce((n, b) => n + Math.max(0, b.to - Math.max(b.from, 0)), 0);
    /** A sample that started while polls were running (a second's margin at each end: log lines arrive late). */
    const inBurst = (at) => bursts.some((b) => at >= b.from - 1000 && at <= b.to + 1000);
    const during = samples.filter((s) => inBurst(s.at)).map((s) => s.ms);
    const between = samples.filter((s) => !inBurst(s.at)).map((s) => s.ms);
    const idle = [...before.map((s) => s.ms), ...between];
    // CPU cores each process used while polls ran and while they did not (the reader's requests run in both).
    const cores = { busy: processes.map(() => 0), idle: processes.map(() => 0), busyS: 0, idleS: 0 };
    for (let k = 1; k < cpuSamples.length; k++) {
      const [a, b] = [cpuSamples[k - 1], cpuSamples[k]];
      const phase = inBurst((a.at + b.at) / 2) ? 'busy' : 'idle';
      cores[`${phase}S`] += (b.at - a.at) / 1000;
      processes.forEach((_, j) => {
        cores[phase][j] += b.cpu[j] - a.cpu[j];
      });
    }
    const cpuRows = processes.map((p, j) => [
      `${p.role} ${p.kind}`,
      (cores.idle[j] / Math.max(cores.idleS, 1e-9)).toFixed(2),
      (cores.busy[j] / Math.max(cores.busyS, 1e-9)).toFixed(2),
    ]);
    if (during.length === 0) during.push(await timedGet(seriesUrl, readerToken));

    // 6. What the polls left: the ledger, one series' tracking.
    const ledger = await fetchJson(`${api}/releases?state=all&pageSize=1`, {
      headers: { Authorization: `Bearer ${adminToken}` },
    });
    const announced = await fetchJson(`${api}/releases?pageSize=1`, {
      headers: { Authorization: `Bearer ${adminToken}` },
    });
    const sum = (key) => batches.reduce((n, b) => n + (b[key] ?? 0), 0);
    const polled = sum('polled');
    const failed = sum('failed');
    const delivered = sum('messages');
    const retried = sum('retried');
    const statements = sum('statements');
    const sent = stack.queued.reduce((n, q) => n + (q.messages ?? 0), 0);
    // Queues bills a write per message sent, a read per delivery and a delete per acknowledgement.
    const queueOps = sent + delivered + (delivered - retried);
    const series = tracked.tracked;
    const p99Idle = percentile(idle, 99);
    const p99During = percentile(during, 99);
    const ratio = p99During / p99Idle;
    const verdict = ratio <= RATIO ? 'meets' : 'MISSES';

    const results = markdownTable(
      ['measure', 'value'],
      [
        [
          'tracked series × sources',
          `${series.toLocaleString('en-US')} × ${tracked.sources} = ${expectedPolls.toLocaleString('en-US')} polls`,
        ],
        ['polls answered / failed', `${polled.toLocaleString('en-US')} / ${failed.toLocaleString('en-US')}`],
        [
          'wall time, poll-now-all to the last batch recorded',
          `${(wallMs / 1000).toFixed(1)} s, of which polls were running ${(busyMs / 1000).toFixed(1)} s in ${bursts.length} bursts (${(expectedPolls / (busyMs / 1000)).toFixed(0)} polls/s while running)`,
        ],
        ['consumer batches', String(batches.length)],
        ['queue messages sent / delivered / retried', `${sent} / ${delivered} / ${retried}`],
        [
          'queue operations (write + read + delete)',
          `${queueOps.toLocaleString('en-US')}: ${(queueOps / series).toFixed(3)} per series`,
        ],
        [
          'D1 statements of the consumers',
          `${statements.toLocaleString('en-US')}: ${(statements / series).toFixed(3)} per series, ${(statements / batches.length).toFixed(1)} per batch`,
        ],
        [
          'ledger rows recorded (new announced)',
          `${ledger.body.total.toLocaleString('en-US')} (${announced.body.total.toLocaleString('en-US')})`,
        ],
      ],
    );
    const latency = markdownTable(
      ['reader GET /series?sort=name (page 1 of 50)', 'n', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'],
      [
        row('idle: before the polls and between their bursts', idle),
        row(
          'of which before the polls',
          before.map((sample) => sample.ms),
        ),
        row(`while polls run (inside a burst of the ${expectedPolls.toLocaleString('en-US')})`, during),
      ],
    );
    const cpuTable = markdownTable(['process', 'CPU cores used, idle', 'CPU cores used, while polls run'], cpuRows);
    const busy = peakLoad > 2.5;
    writeSection(
      'Release polling at scale',
      [
        `${series.toLocaleString('en-US')} tracked series — every live series of the catalog-queries catalog (${seeded.books.toLocaleString('en-US')} books) with a`,
        'MangaUpdates and an AniList id (bench/lib/seed-tracking.mjs) — polled at both built-in sources through Longbox',
        'as `npm start` runs it: `POST /release-sources/poll-now-all` makes every series due, the dispatcher claims',
        'them (one `UPDATE … RETURNING` per source) onto the release-poll queue in messages of 25 series, and the',
        'longbox-jobs consumers (niceness 10) ask the providers — the fake MangaUpdates and AniList of the tests,',
        'serving the vendored example answers from a Node process of their own at niceness 19, paced at',
        PACE_MS === 0
          ? 'full speed (`--pace-ms=0`; Longbox paces the real services at 1 and 2 s a request) — and record each batch in one'
          : `${PACE_MS} ms a request (\`--pace-ms=${PACE_MS}\`; Longbox paces the real services at 1 and 2 s a request) — and record each batch in one`,
        'D1 batch. Counts come from the dispatcher\'s "queued polls" and the consumers\' "batch done" log lines.',
        '',
        results,
        '',
        `A reader's GET /series, timed from Node back to back: ${IDLE_ROUNDS} times before the polls, then for as`,
        "long as they run. poll-now-all makes every series due; the dispatcher hands out a tick's worth",
        `(\`LONGBOX_RELEASES__POLLS_PER_TICK=${TICK}\` per source) at once and the rest at the next one-minute ticks`,
        '(start.mjs ticks the cron), so the polls come in bursts with idle time between them. Each sample is',
        'classed by when it started: inside a burst (from a dispatch until the consumers have done what it',
        'queued, a second of margin each side) or not. Idle and busy samples thus share the same minutes of a',
        `shared machine. Target: p99 inside the bursts within ${RATIO}× of idle.`,
        '',
        latency,
        '',
        'CPU each process used (from /proc, sampled every second; "api runtime" is the workerd that answers the',
        'reader and hosts the EventHub Durable Object, "jobs runtime" the consumers\', "providers fake" the fakes):',
        '',
        cpuTable,
        '',
        `**p99 while polling / idle: ${ratio.toFixed(2)}× — ${verdict}.**`,
        '',
        ...(busy
          ? [
              `The machine was busy (1-minute load average up to ${peakLoad.toFixed(2)} on ${os.availableParallelism()} CPUs; the`,
              'bench itself keeps about two busy), so tails are noisy.',
              '',
            ]
          : []),
        ...environmentLines(`npm run bench -- release-poll${PACE_MS === 10 ? '' : ` --pace-ms=${PACE_MS}`}`),
      ].join('\n'),
    );
    console.log(results);
    console.log(latency);
    console.log(cpuTable);
    console.log(`p99 ratio ${ratio.toFixed(2)} (${verdict})`);
    if (SMOKE && polled + failed === 0) throw new Error('no poll ran');
  } finally {
    await stack?.stop();
    fakes?.stop();
    removeDir(state);
    console.log(elapsed(), 'stopped');
  }
}

await main();
