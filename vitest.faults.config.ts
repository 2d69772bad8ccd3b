import { defineConfig } from 'vitest/config';

/**
 * `npm run test:faults`: the slow fault tests (issue 21, docs/RELIABILITY.md "Faults") on `npm start`'s two
 * real processes, killed, restarted and starved of their database lock. Kept out of `npm test` (minutes
 * each); the fast fault tests run there (test/api/faults-*.test.ts).
 */
export default defineConfig({
  test: {
    name: 'faults',
    environment: 'node',
    include: ['test/faults/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 600_000,
    hookTimeout: 600_000,
  },
});
