import path from 'node:path';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';
import { rendererAuxiliaryWorker } from './renderer/scripts/bundle.mjs';

/**
 * Two projects: `workers` runs the real worker in workerd (miniflare) with real D1, R2 and Durable
 * Objects — every HTTP test lives there; `node` runs what must run in Node (the libSQL-file proof,
 * the CLI commands).
 */
export default defineConfig(async () => {
  const migrations = await readD1Migrations(path.join(import.meta.dirname, 'migrations'));
  // The API worker's RENDERER service binding needs the renderer running beside it (bundled on demand).
  const renderer = await rendererAuxiliaryWorker(import.meta.dirname);
  return {
    test: {
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
                },
                workers: [renderer],
              },
            }),
          ],
          test: {
            name: 'workers',
            include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'durable-objects/**/*.test.ts'],
            exclude: ['test/node/**'],
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
          test: {
            name: 'node',
            environment: 'node',
            include: ['test/node/**/*.test.ts'],
            testTimeout: 120_000,
          },
        },
      ],
    },
  };
});
