// Timing a set of GET requests against a running worker over loopback, the way the catalog benches do (lists,
// opds-feed): one pass to count what each answer holds, warm-up rounds, then interleaved timed rounds, so a
// slow moment of the shared machine falls on every request alike rather than on one.
import os from 'node:os';

/** Every how many rounds the 1-minute load average is read. */
const LOAD_EVERY = 20;

/** One GET, timed from Node until its body is read; anything but 200 ends the run. */
export async function timed(url, headers) {
  const started = process.hrtime.bigint();
  const res = await fetch(url, { headers });
  const body = await res.text();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${body.slice(0, 300)}`);
  return { ms, body };
}

/** Entries in a response: the envelope's data, an Atom feed's entries, an OPDS 2 feed's publications. */
export function entries(pathName, body) {
  if (pathName.startsWith('/opds/v1.2')) return (body.match(/<entry>/g) ?? []).length;
  if (pathName.startsWith('/opds/v2.0')) return JSON.parse(body).publications.length;
  return JSON.parse(body).data?.length ?? '—';
}

/**
 * `requests` ({ path, headers }) against `base`: the entries of each first answer, then `warmup` untimed rounds
 * and `rounds` timed ones. Returns the entries and the milliseconds of each request (in `requests` order), and
 * the highest load average seen during the timed rounds.
 */
export async function interleavedRounds(base, requests, { warmup, rounds }) {
  const counts = [];
  for (const r of requests) counts.push(entries(r.path, (await timed(`${base}${r.path}`, r.headers)).body));
  for (let i = 0; i < warmup; i++) for (const r of requests) await timed(`${base}${r.path}`, r.headers);
  const samples = requests.map(() => []);
  let peakLoad = 0;
  for (let i = 0; i < rounds; i++) {
    for (const [j, r] of requests.entries()) samples[j].push((await timed(`${base}${r.path}`, r.headers)).ms);
    if (i % LOAD_EVERY === LOAD_EVERY - 1) peakLoad = Math.max(peakLoad, os.loadavg()[0]);
  }
  return { counts, samples, peakLoad };
}
