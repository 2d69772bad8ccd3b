/** DECISIONS.md §Auth (login rate limited per username and per client address) and §Errors (429). */
import { describe, expect, it, vi } from 'vitest';
import { ADMIN, setupAdmin } from '../support/factories';
import { api, type ApiResponse, expectError } from '../support/http';

const WINDOW_SECONDS = 15 * 60;
// Every failed attempt costs one argon2id hash (~0.2–0.5 s here), so these tests need more time.
const SLOW = 90_000;

function attempt(username: string, password: string, address = '203.0.113.7') {
  return api('/auth/login', { json: { username, password }, headers: { 'CF-Connecting-IP': address } });
}

function expectThrottled(res: ApiResponse) {
  const error = expectError(res, 429, 'TooManyRequests');
  const retryAfter = Number(res.headers.get('Retry-After'));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
  return { error, retryAfter };
}

describe('per-username throttling (DECISIONS.md §Auth: 5 failures in 15 min → 429)', () => {
  it(
    'answers 429 with Retry-After after five failures, refusing even the right password',
    async () => {
      await setupAdmin();
      // The counter ignores case and client address: spreading guesses over both does not help.
      const spellings = ['admin', 'ADMIN', 'Admin', 'aDmin', 'admIN'];
      for (const [i, username] of spellings.entries()) {
        expectError(await attempt(username, `wrong-guess-${i}`, `198.51.100.${i}`), 401, 'Unauthorized');
      }
      expectThrottled(await attempt('admin', 'wrong-guess-6'));
      const { error } = expectThrottled(await attempt('admin', ADMIN.password, '192.0.2.55'));
      expect(error.message).toMatch(/try again later/i);

      // Other users are not affected.
      expectError(await attempt('someone-else', 'wrong-guess-7'), 401, 'Unauthorized');
    },
    SLOW,
  );

  it(
    'evaluates at most five of many parallel guesses (no slipping past the limit while hashes run)',
    async () => {
      await setupAdmin();
      const guesses = await Promise.all(
        Array.from({ length: 12 }, (_, i) => attempt('admin', `parallel-guess-${i}`, `198.51.100.${i}`)),
      );
      const statuses = guesses.map((r) => r.status).sort();
      expect(statuses).toEqual([...Array(5).fill(401), ...Array(7).fill(429)]);
      for (const res of guesses.filter((r) => r.status === 429)) expectThrottled(res);
      expectThrottled(await attempt('admin', ADMIN.password));
    },
    SLOW,
  );

  it(
    'lets the user in again once the window has passed',
    async () => {
      await setupAdmin();
      for (let i = 0; i < 5; i++) expectError(await attempt('admin', `wrong-guess-${i}`), 401, 'Unauthorized');
      const { retryAfter } = expectThrottled(await attempt('admin', ADMIN.password));

      vi.useFakeTimers({ toFake: ['Date'] });
      try {
        vi.setSystemTime(Date.now() + (retryAfter - 60) * 1000);
        expectThrottled(await attempt('admin', ADMIN.password));
        vi.setSystemTime(Date.now() + 61_000);
        expect((await attempt('admin', ADMIN.password)).status).toBe(200);
      } finally {
        vi.useRealTimers();
      }
    },
    SLOW,
  );

  it(
    'forgives earlier failures after a successful login',
    async () => {
      await setupAdmin();
      for (let i = 0; i < 4; i++) expectError(await attempt('admin', `wrong-guess-${i}`), 401, 'Unauthorized');
      expect((await attempt('admin', ADMIN.password)).status).toBe(200);
      for (let i = 0; i < 4; i++) expectError(await attempt('admin', `wrong-again-${i}`), 401, 'Unauthorized');
      expect((await attempt('admin', ADMIN.password)).status).toBe(200);
    },
    SLOW,
  );

  it(
    'counts failed HTTP Basic checks against the same username',
    async () => {
      await setupAdmin();
      const basic = (password: string) => api('/auth/me', { auth: { basic: { username: 'admin', password } } });
      for (let i = 0; i < 5; i++) expectError(await basic(`wrong-guess-${i}`), 401, 'Unauthorized');
      expectThrottled(await basic(ADMIN.password));
      expectThrottled(await attempt('admin', ADMIN.password));
    },
    SLOW,
  );
});

describe('per-address throttling (DECISIONS.md §Auth: 20 failures from one address → 429)', () => {
  it(
    'blocks an address that guessed across many usernames, while another address still logs in',
    async () => {
      await setupAdmin();
      const sprayer = '203.0.113.99';
      for (let i = 0; i < 20; i++) {
        expectError(await attempt(`victim${i}`, 'Winter2026!', sprayer), 401, 'Unauthorized');
      }
      expectThrottled(await attempt('fresh-name', 'Winter2026!', sprayer));
      expectThrottled(await attempt('admin', ADMIN.password, sprayer));

      const elsewhere = await attempt('admin', ADMIN.password, '198.51.100.20');
      expect(elsewhere.status).toBe(200);
      // The admin's success elsewhere does not lift the block on the spraying address.
      expectThrottled(await attempt('admin', ADMIN.password, sprayer));
    },
    SLOW,
  );

  it(
    'does not count successful logins against a shared address',
    async () => {
      await setupAdmin();
      const office = '192.0.2.10';
      for (let i = 0; i < 20; i++) expect((await attempt('admin', ADMIN.password, office)).status).toBe(200);
      expectError(await attempt('admin', 'one-typo-here', office), 401, 'Unauthorized');
    },
    SLOW,
  );

  it(
    'counts HTTP Basic guesses against the client address too',
    async () => {
      await setupAdmin();
      const sprayer = '203.0.113.150';
      const basic = (username: string, password: string, address: string) =>
        api('/auth/me', {
          auth: { basic: { username, password } },
          headers: { 'CF-Connecting-IP': address },
        });
      for (let i = 0; i < 20; i++)
        expectError(await basic(`basic-victim${i}`, 'Spring2026!', sprayer), 401, 'Unauthorized');
      expectThrottled(await basic('admin', ADMIN.password, sprayer));
      expect((await basic('admin', ADMIN.password, '198.51.100.77')).status).toBe(200);
    },
    SLOW,
  );
});
