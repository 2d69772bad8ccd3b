import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vitest/config';
import { rendererAuxiliaryWorker } from './renderer/scripts/bundle.mjs';
import { koreaderFixtureBindings } from './test/support/koreader-statistics-db.mjs';
import { providerFakesWorker } from './test/support/provider-fakes/examples.mjs';

/**
 * The real-archive corpus (../shared/corpus, beside the clone) as bindings for the workers tests, which
 * cannot read host files: CORPUS_FILES maps each file's path inside the corpus to its bytes in base64
 * (~300 KB), CORPUS_FOUND says whether the folder exists so the corpus test can skip cleanly without it.
 */
function corpusBindings(root: string): { CORPUS_FOUND: boolean; CORPUS_FILES: Record<string, string> } {
  const dir = path.join(root, '..', 'shared', 'corpus');
  if (!existsSync(dir)) return { CORPUS_FOUND: false, CORPUS_FILES: {} };
  const files: Record<string, string> = {};
  for (const relative of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const full = path.join(dir, relative);
    if (relative.includes(path.sep) && statSync(full).isFile()) {
      files[relative.split(path.sep).join('/')] = readFileSync(full).toString('base64');
    }
  }
  return { CORPUS_FOUND: true, CORPUS_FILES: files };
}

/**
 * Two projects: `workers` runs the real worker in workerd (miniflare) with real D1, R2 and Durable
 * Objects — every HTTP test lives there; `node` runs what must run in Node (the libSQL-file proof,
 * the CLI commands).
 */
/** wrangler.toml's [assets] directory must exist before the workers pool reads it: build the web app once. */
function ensureWebBuild(root: string): void {
  if (existsSync(path.join(root, 'dist', 'web', 'index.html'))) return;
  const build = spawnSync(process.execPath, [path.join(root, 'scripts', 'build-web.mjs')], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build:web failed');
}

export default defineConfig(async () => {
  ensureWebBuild(import.meta.dirname);
  const migrations = await readD1Migrations(path.join(import.meta.dirname, 'migrations'));
  // The API worker's RENDERER service binding needs the renderer running beside it (bundled on demand).
  const renderer = await rendererAuxiliaryWorker(import.meta.dirname);
  return {
    test: {
      // At least two files at a time. Vitest's default (one fewer than the cores) is a single file at a
      // time on a 2-core machine, and these files spend most of their time waiting on workerd, wrangler dev
      // and Chromium rather than computing: two at a time took the suite from ~42 to ~32 minutes there at load 5-9,
      // and to ~24 minutes on CI's quiet 2-core machine.
      maxWorkers: Math.max(2, availableParallelism() - 1),
      projects: [
        {
          plugins: [
            cloudflareTest({
              wrangler: { configPath: './wrangler.toml' },
              // One step per scan/task alarm, so tests can observe (and interrupt) a scan part-way.
              miniflare: {
                bindings: {
                  TEST_MIGRATIONS: migrations,
                  LONGBOX_SCAN__SLICE_MS: '1',
                  LONGBOX_TASKS__SLICE_MS: '1',
                  LONGBOX_LOG__LEVEL: 'warn',
                  LONGBOX_EVENTS__KEEP_ALIVE_MS: '200',
                  LONGBOX_INGEST__RETRY_DELAY_SECONDS: '0',
                  // Release tracking asks the fake providers (test/support/provider-fakes), at full speed, and
                  // gives a slow one half a second.
                  LONGBOX_RELEASES__MANGAUPDATES_URL: 'http://mangaupdates.fake/v1',
                  LONGBOX_RELEASES__ANILIST_URL: 'http://anilist.fake/graphql',
                  LONGBOX_RELEASES__MANGAUPDATES_MIN_INTERVAL_MS: '0',
                  LONGBOX_RELEASES__ANILIST_MIN_INTERVAL_MS: '0',
                  LONGBOX_RELEASES__TIMEOUT_MS: '500',
                  ...corpusBindings(import.meta.dirname),
                  // KOReader statistics databases, written by a real SQLite (node:sqlite) for the upload tests.
                  ...koreaderFixtureBindings(),
                },
                // A second database standing in for a D1 read replica that lags (src/fault-injection: LaggingReplica).
                d1Databases: { REPLICA_SIM: 'replica-sim' },
                workers: [renderer, providerFakesWorker(import.meta.dirname)],
                // The worker's own outbound requests go through the fake providers, which answer for the
                // `*.fake` hosts and pass everything else on: Longbox's real HTTP client meets a real server.
                outboundService: 'release-provider-fakes',
                // The test worker consumes the book-work queues itself (production: consumers/wrangler.toml),
                // with the production batch size and a short batch wait so tests need not sit out 1 s per batch.
                queueConsumers: {
                  'longbox-book-work': {
                    maxBatchSize: 10,
                    maxBatchTimeout: 0.05,
                    maxRetries: 2,
                    deadLetterQueue: 'longbox-book-work-dlq',
                  },
                  'longbox-book-work-dlq': { maxBatchSize: 10, maxBatchTimeout: 0.05, maxRetries: 1 },
                  // As consumers/wrangler.toml (4 messages of up to 25 series), without its 5 s batch wait.
                  'longbox-release-poll': { maxBatchSize: 4, maxBatchTimeout: 0.05, maxRetries: 2 },
                },
              },
            }),
          ],
          test: {
            name: 'workers',
            include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'durable-objects/**/*.test.ts'],
            exclude: ['test/node/**', 'test/e2e/**', 'test/bench/**', 'test/faults/**'],
            setupFiles: ['./test/support/apply-migrations.ts'],
            testTimeout: 30_000,
          },
        },
        {
          // The renderer worker (renderer/) on its own: codecs, PDF rendering and its RPC entrypoint.
          plugins: [cloudflareTest({ wrangler: { configPath: './renderer/wrangler.toml' } })],
          test: {
            name: 'renderer',
            include: ['renderer/test/**/*.test.ts'],
            testTimeout: 60_000,
          },
        },
        {
          // Worker source imported in Node: the unrar .wasm import becomes a compiled module, as in workerd.
          resolve: {
            alias: [
              {
                find: /^node-unrar-js\/dist\/js\/unrar\.wasm$/,
                replacement: path.join(import.meta.dirname, 'test/support/wasm-module.node.ts'),
              },
            ],
          },
          test: {
            name: 'node',
            environment: 'node',
            include: ['test/node/**/*.test.ts'],
            testTimeout: 120_000,
          },
        },
        {
          // The web app's own logic (web/src), in a DOM without a browser.
          plugins: [preact()],
          test: {
            name: 'web',
            environment: 'happy-dom',
            include: ['web/**/*.test.ts', 'web/**/*.test.tsx'],
          },
        },
        {
          // End to end: `wrangler dev` on a free port and Debian's Chromium driven by playwright-core
          // (test/support/dev-server.ts, test/e2e/support). Each file starts its own server with its own
          // state folder and dev registry, so files run beside each other and beside the other projects.
          test: {
            name: 'e2e',
            environment: 'node',
            include: ['test/e2e/**/*.test.ts'],
            testTimeout: 180_000,
            hookTimeout: 180_000,
          },
        },
        {
          // A smoke run of every benchmark (test/bench/bench-smoke.test.ts), after all the other projects
          // have finished (a higher group order runs later), so the benches have the machine to themselves.
          test: {
            name: 'bench',
            environment: 'node',
            include: ['test/bench/**/*.test.ts'],
            sequence: { groupOrder: 1 },
          },
        },
      ],
    },
  };
});
