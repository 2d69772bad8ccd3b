// `npm start` as a user runs it (scripts/start.mjs from a source snapshot: the API worker in one `wrangler dev`
// process; the book-work consumers and the native-image worker in a second), on free loopback ports, with
// each process's DevTools inspector on a known port, and the processes it is made of told apart so their
// memory can be sampled one by one.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort, killOnInterrupt } from './wrangler-dev.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls `fn(0…count-1)`, `limit` at a time (uploads of a benchmark library). */
export async function mapLimited(count, limit, fn) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < count) await fn(next++);
    }),
  );
}

/**
 * Starts scripts/start.mjs of `sources` (snapshotSources) over the local state in `data`; resolves once
 * both processes answer. Lines other than access logs are kept (tail), the consumers' "batch done"
 * lines are parsed into `batches` and the release-poll dispatcher's "queued polls" lines into `queued`. `vars` become LONGBOX_* environment variables (both workers get them).
 */
export async function startLongbox(options) {
  try {
    return await startOnce(options);
  } catch (error) {
    // wrangler picks some of its ports itself (the dev registry's direct sockets) and can lose one to another
    // process starting on the busy machine at the same moment: one more try.
    if (!String(error).includes('Address already in use')) throw error;
    console.warn('npm start lost a port to another process; starting it again');
    return startOnce(options);
  }
}

async function startOnce({ sources, data, env = {}, readyTimeoutMs = 180_000 }) {
  const [port, jobsPort, inspectorPort, jobsInspectorPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const child = spawn(process.execPath, [sources.start], {
    cwd: path.dirname(path.dirname(sources.start)),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: String(port),
      JOBS_PORT: String(jobsPort),
      INSPECTOR_PORT: String(inspectorPort),
      JOBS_INSPECTOR_PORT: String(jobsInspectorPort),
      PERSIST_TO: data,
      CI: 'true',
      WRANGLER_SEND_METRICS: 'false',
      LONGBOX_LOG__LEVEL: 'info',
      ...env,
    },
  });
  // start.mjs runs in its own process group with its two wranglers: an interrupted bench ends them all.
  child.once('exit', killOnInterrupt(child.pid));
  const batches = [];
  /** The release-poll dispatcher's "queued polls" lines (issue 32): polls and queue messages sent. */
  const queued = [];
  let tail = '';
  let partial = '';
  const read = (chunk) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (line.includes('"batch done"') || line.includes('"queued polls"')) {
        try {
          const entry = { at: Date.now(), ...JSON.parse(line.slice(line.indexOf('{'))) };
          (entry.msg === 'queued polls' ? queued : batches).push(entry);
        } catch {
          // a line cut by the terminal formatting: not counted
        }
      } else if (!line.includes('"msg":"request"')) tail = `${tail}${line}\n`.slice(-30_000);
    }
  };
  child.stdout.on('data', read);
  child.stderr.on('data', read);
  const url = `http://127.0.0.1:${port}`;
  const jobsUrl = `http://127.0.0.1:${jobsPort}`;
  /** Whether any process of start.mjs's group (its wranglers, their workerd) is still alive. */
  const groupAlive = () => {
    try {
      process.kill(-child.pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  const waitForGroup = async (ms) => {
    for (const deadline = Date.now() + ms; groupAlive() && Date.now() < deadline; ) await sleep(100);
  };
  // Stopped means every process gone, workerd included (it can outlive its wrangler by a moment): the next
  // server a bench starts must not meet this one's sockets.
  const stop = async () => {
    if (!groupAlive()) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    await waitForGroup(15_000);
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
    await waitForGroup(5_000);
  };
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    const up = await Promise.all([
      fetch(`${url}/api/v1/health`).then(
        (r) => r.ok,
        () => false,
      ),
      fetch(`${jobsUrl}/`).then(
        (r) => r.status === 404,
        () => false,
      ),
    ]);
    if (up.every(Boolean)) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`npm start did not start:\n${tail}`);
    }
    await sleep(500);
  }
  return { url, jobsUrl, pid: child.pid, inspectorPort, jobsInspectorPort, batches, queued, stop, tail: () => tail };
}

function processTable() {
  const table = new Map();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ');
      table.set(Number(entry), { parent, command });
    } catch {
      // gone meanwhile
    }
  }
  return table;
}

/**
 * The processes under `rootPid`, by role ('api' or 'jobs', from the wrangler's config) and kind:
 * - 'runtime': the workerd that runs the workers themselves with the local R2/D1/Queues/cache simulators
 *   (its entry socket is on port 0: only the proxy talks to it);
 * - 'proxy': the workerd of wrangler's dev proxy, which owns the public port and forwards every request;
 * - 'wrangler': wrangler's Node process (miniflare, the inspector proxy, logging);
 * - 'other': the launcher wrapper and esbuild.
 */
export function stackProcesses(rootPid) {
  const table = processTable();
  const ancestors = (pid) => {
    const chain = [];
    for (let p = table.get(pid)?.parent; p && p > 1; p = table.get(p)?.parent) chain.push(p);
    return chain;
  };
  const found = [];
  for (const [pid, { command }] of table) {
    const chain = ancestors(pid);
    if (!chain.includes(rootPid)) continue;
    const wranglerPid = [pid, ...chain].find((p) => table.get(p)?.command.includes('wrangler.js dev'));
    if (!wranglerPid) continue;
    const role = table.get(wranglerPid).command.includes('consumers/wrangler.toml') ? 'jobs' : 'api';
    const kind = command.includes('workerd serve')
      ? command.includes('entry=127.0.0.1:0 ')
        ? 'runtime'
        : 'proxy'
      : command.includes('wrangler-dist/cli.js')
        ? 'wrangler'
        : 'other';
    found.push({ pid, role, kind, command });
  }
  return found;
}

/** Resident set (bytes) of one process, or 0 once it is gone. */
export function residentBytes(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/**
 * Where a process's resident memory is (/proc/<pid>/smaps): the C heap ([heap], malloc's brk area),
 * other anonymous mappings (V8's heap pages, malloc's mmap'd arenas and large blocks), and file-backed
 * pages (the binary, SQLite files mapped by the simulators). Bytes.
 */
export function residentBreakdown(pid) {
  const out = { heap: 0, anon: 0, file: 0 };
  let text;
  try {
    text = readFileSync(`/proc/${pid}/smaps`, 'utf8');
  } catch {
    return out;
  }
  let kind = 'anon';
  for (const line of text.split('\n')) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ (\d+)\s*(.*)$/.exec(line);
    if (mapping) {
      const name = mapping[2];
      kind = name === '[heap]' ? 'heap' : name === '' || name.startsWith('[') ? 'anon' : 'file';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) out[kind] += Number(rss[1]) * 1024;
  }
  return out;
}
