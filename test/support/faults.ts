/**
 * The worker under a misbehaving platform (docs/RELIABILITY.md, "Faults"): the worker's own handlers, called
 * with the test's real bindings plus a `FAULT_INJECTION` object (src/fault-injection/platform-faults.ts), so
 * R2, D1 or the renderer fail exactly where and how a test says while every line of Longbox runs as deployed.
 */
import {
  createExecutionContext,
  createMessageBatch,
  env,
  getQueueResult,
  waitOnExecutionContext,
} from 'cloudflare:test';
import worker from '../../worker/index';
import type { FaultInjector, R2GetFault } from '../../src/fault-injection/platform-faults';
import { authHeaders, type Credentials } from './http';

export interface FaultyWorker {
  env: Env;
  /**
   * An HTTP request into the worker, as SELF.fetch makes it (paths without /api/, /opds, /komga/, /koreader/ or
   * /kobo/ go to /api/v1).
   */
  fetch(path: string, init?: RequestInit & { auth?: Credentials }): Promise<Response>;
  /** One batch of book-work messages through the worker's queue handler: what it acked and retried. */
  deliver(queue: string, bodies: unknown[], attempts?: number): ReturnType<typeof getQueueResult>;
  /** Waits for the work the requests deferred (waitUntil): edge-cache fills, event publishing. */
  settle(): Promise<void>;
  /**
   * Credentials for requests through this worker. Its environment is another object than SELF's, so it
   * reads the generated server secret from D1 itself; a SELF session (signed with the secret SELF holds
   * in memory since an earlier test) is not valid here, a password sign-in through this worker is.
   */
  signIn(user: { username: string; password: string }): Promise<Credentials>;
}

export function faultyWorker(injector: FaultInjector, vars: Record<string, string> = {}): FaultyWorker {
  const faultyEnv = { ...env, ...vars, FAULT_INJECTION: injector } as unknown as Env;
  const contexts: ExecutionContext[] = [];
  return {
    env: faultyEnv,
    async fetch(path, init = {}) {
      const { auth, ...rest } = init;
      const prefixed = ['/api/', '/opds', '/komga/', '/koreader/', '/kobo/'].some((prefix) => path.startsWith(prefix));
      const url = prefixed ? path : `/api/v1${path}`;
      const headers = new Headers(rest.headers);
      for (const [name, value] of Object.entries(authHeaders(auth))) headers.set(name, value);
      const ctx = createExecutionContext();
      contexts.push(ctx);
      const request = new Request(`http://longbox.test${url}`, { ...rest, headers });
      return worker.fetch(request as Parameters<typeof worker.fetch>[0], faultyEnv, ctx);
    },
    async deliver(queue, bodies, attempts = 1) {
      const messages = bodies.map((body) => ({ id: crypto.randomUUID(), timestamp: new Date(), attempts, body }));
      const batch = createMessageBatch(queue, messages);
      const ctx = createExecutionContext();
      await worker.queue(batch, faultyEnv, ctx);
      return getQueueResult(batch, ctx);
    },
    async signIn(user) {
      const res = await this.fetch('/auth/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: user.username, password: user.password }),
      });
      if (res.status !== 200)
        throw new Error(`sign-in through the faulty worker failed: ${res.status} ${await res.text()}`);
      return { token: ((await res.json()) as { access_token: string }).access_token };
    },
    async settle() {
      await Promise.all(contexts.splice(0).map((ctx) => waitOnExecutionContext(ctx)));
    },
  };
}

/** A fault for the first `times` reads of `key` from the library bucket, then none. */
export function libraryReadFault(key: string, fault: R2GetFault, times = 1) {
  let left = times;
  const reads: string[] = [];
  return {
    reads,
    get left() {
      return left;
    },
    r2Get: ({ bucket, key: read }: { bucket: string; key: string }) => {
      if (bucket !== 'LIBRARY' || read !== key || left <= 0) return undefined;
      left -= 1;
      reads.push(read);
      return fault;
    },
  };
}

/** Reads a body until it ends or fails: the bytes that arrived and the failure, if any. */
export async function readUntilFailure(body: ReadableStream<Uint8Array> | null) {
  const chunks: Uint8Array[] = [];
  let failure: unknown;
  if (body) {
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
      }
    } catch (error) {
      failure = error;
    }
  }
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return { bytes, failure };
}

/** An error as R2 raises it when its storage fails (the message R2 gives, Cloudflare's code 10001). */
export const r2InternalError = () => new Error('get: We encountered an internal error. Please try again. (10001)');
