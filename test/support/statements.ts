/**
 * Counting the D1 statements a request costs: the worker's own handler with a `FAULT_INJECTION` that fails
 * nothing and records every call (src/fault-injection/platform-faults.ts sees each statement, and each batch
 * as one call). Deferred work (waitUntil) is settled before counting stops, so it is counted too. R2 `get`
 * and `head` calls are recorded the same way, as `get BUCKET key` / `head BUCKET key`.
 */
import { faultyWorker } from './faults';
import type { Credentials } from './http';

export function statementCounter() {
  const calls: string[][] = [];
  const r2: string[] = [];
  const worker = faultyWorker({
    d1: ({ sql }) => {
      calls.push(sql);
      return undefined;
    },
    r2Get: ({ bucket, key }) => {
      r2.push(`get ${bucket} ${key}`);
      return undefined;
    },
    r2Head: ({ bucket, key }) => {
      r2.push(`head ${bucket} ${key}`);
      return undefined;
    },
  });
  return {
    worker,
    /** The D1 calls (a statement, or a batch's statements) and R2 calls one request made, with its response. */
    async measure(path: string, init: RequestInit & { auth?: Credentials } = {}) {
      await worker.settle();
      calls.length = 0;
      r2.length = 0;
      const response = await worker.fetch(path, init);
      const body = await response.text();
      await worker.settle();
      return { status: response.status, headers: response.headers, body, calls: [...calls], r2: [...r2] };
    },
  };
}
