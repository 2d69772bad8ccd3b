/**
 * Retries D1 calls that SQLite refused with SQLITE_BUSY. Under `npm start` two workerd processes (the
 * API and the ingest consumers, issue 11 point 3) open the same local D1 file; SQLite's locks keep it
 * consistent (WAL: readers never wait), but a write that meets the other process's write transaction
 * fails at once with "database is locked" instead of waiting. A refused statement or batch changed
 * nothing (a batch is one transaction), so running it again is safe. Deployed D1 has one writer and
 * never answers SQLITE_BUSY; there this wrapper only forwards.
 */

import { aroundD1Calls } from './d1-calls';

const ATTEMPTS = 50;
const FIRST_DELAY_MS = 2;
const MAX_DELAY_MS = 100;

const isBusy = (error: unknown) => /SQLITE_BUSY|database is locked/.test(String(error));

async function retrying<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1, delay = FIRST_DELAY_MS; ; attempt++, delay = Math.min(delay * 2, MAX_DELAY_MS)) {
    try {
      return await call();
    } catch (error) {
      if (attempt >= ATTEMPTS || !isBusy(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay + Math.random() * delay));
    }
  }
}

export function retryWhenBusy<Binding>(binding: Binding): Binding {
  return aroundD1Calls(binding, (call) => retrying(call));
}
