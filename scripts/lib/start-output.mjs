// What `npm start` (scripts/start.mjs) prints: one line per step, then the processes' own log lines. The
// tools under it talk for a machine: `wrangler d1 migrations apply` reprints its whole status table after
// every migration (over a thousand lines on a fresh clone), and every `wrangler dev` opens with a banner,
// its bindings table, a hint about types and, offline, a warning with a stack trace per process. Those are
// read here and summed up or left out; `npm start -- --verbose` shows everything as it came.

/** `0000_foundation.sql`-style names in wrangler's tables, each once, in order. */
export function migrationNames(output) {
  const names = [];
  for (const match of output.matchAll(/│\s*(\d{4}_[^\s│]+\.sql)\s*│/g)) {
    if (!names.includes(match[1])) names.push(match[1]);
  }
  return names;
}

/** The one line the migration step prints. */
export function migrationSummary(output) {
  const names = migrationNames(output).map((name) => name.replace(/\.sql$/, ''));
  if (names.length === 0) return 'Database: up to date.';
  if (names.length === 1) return `Database: 1 migration applied (${names[0]}).`;
  return `Database: ${names.length} migrations applied (${names[0]} … ${names[names.length - 1]}).`;
}

/** Lines of `wrangler dev` that say nothing a Longbox user acts on. */
const NOISE = [
  /^\s*$/,
  /⛅️ wrangler/,
  /^─+$/,
  /has access to the following bindings:$/,
  /^Binding\s+Resource\s+Mode/,
  /^env\.\S/,
  /^Service bindings, Durable Object bindings, and Tail consumers connect/,
  /Your types might be out of date/,
  /^⎔ (Starting local server|Connection status updated|Reloading local server|Local server updated)/,
  /\[wrangler:info\] (Updated and )?[Rr]eady on /,
  // wrangler's own echo of each request: Longbox logs its requests itself ("msg":"request").
  /\[wrangler:info\] (GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) \S+ \d{3} /,
];

/** wrangler's offline warning and the stack trace it prints after it. */
const CF_WARNING = /Unable to fetch the `Request\.cf` object/;
const STACK_LINE = /^(Error: getaddrinfo \S+ workers\.cloudflare\.com|\s+at )/;

/**
 * Filters one `wrangler dev` process's lines and prefixes the rest with the process's name. Until the
 * process is ready, its request log lines are `npm start`'s own readiness probes, left out too.
 */
export class WranglerLines {
  #name;
  #afterCfWarning = false;
  ready = false;
  /** Set when wrangler says the process serves (after its dev-registry work is done). */
  saidReady = false;

  constructor(name) {
    this.#name = name;
  }

  /** The line to print, or null. */
  filter(line) {
    // biome-ignore lint/suspicious/noControlCharactersInRegex: terminal colour codes are what is removed
    const plain = line.replace(/\u001b\[[0-9;]*m/g, '').trimEnd();
    if (/\[wrangler:info\] (Updated and )?[Rr]eady on /.test(plain)) this.saidReady = true;
    if (CF_WARNING.test(plain)) {
      this.#afterCfWarning = true;
      return null;
    }
    if (this.#afterCfWarning && STACK_LINE.test(plain)) return null;
    this.#afterCfWarning = false;
    if (NOISE.some((pattern) => pattern.test(plain))) return null;
    if (!this.ready && plain.includes('"msg":"request"')) return null;
    return `[${this.#name}] ${plain}`;
  }
}
