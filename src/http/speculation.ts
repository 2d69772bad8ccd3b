/**
 * A request run once more through the app, for a guard that already ran its handler as the principal this
 * isolate remembered, beside the credential check (docs/ARCHITECTURE.md, "The credential check beside the
 * request"; middleware/caller.ts), and found that the check disagrees: it refused the credential, found other
 * facts, or a guarded write found the credential changed. The speculative answer is then dropped, and this run,
 * with a Hono context of its own (nothing the speculative handler set on the outer context reaches it), makes
 * the answer: as the verified principal, or with the check's refusal (which a guard may still get past, as
 * Komga's does with its remember-me cookie). It is told its caller rather than checking again, and shares the
 * outer request's service graph, logger and id.
 *
 * The mark is a WeakMap entry on the execution context the guard hands the nested run (a view of the
 * request's own): nothing a client sends can produce it, and it survives middleware that replaces the
 * request object (a body limit re-wraps the body).
 */
import type { Principal } from '../auth/principal';
import type { Services } from '../composition-root';
import type { Config } from '../config/config';
import type { DeferredWork } from '../lib/deferred-work';
import type { Logger } from '../lib/logger';

/** The request's variables a nested run reuses (env.ts `AppEnv`). */
interface Shared {
  requestId: string;
  config: Config;
  logger: Logger;
  services: Services;
  deferred: DeferredWork;
  dispatch: (request: Request, run: NestedRun) => Promise<Response>;
}

export interface NestedRun {
  /** What the credential check found: the caller the run answers as (the route's permission is still checked), or its refusal. */
  verdict: { principal: Principal } | { refusal: unknown };
  /** The outer request's variables, reused as they are. */
  shared: Shared;
}

const runs = new WeakMap<object, NestedRun>();

/** The execution context of a nested run: the request's own (or none, in-process), marked with the run. */
export function nestedContext(ctx: ExecutionContext | undefined, run: NestedRun): ExecutionContext {
  const context = ctx
    ? new Proxy(ctx, {
        get(target, property) {
          const value = Reflect.get(target, property);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      })
    : ({
        waitUntil: () => undefined,
        passThroughOnException: () => undefined,
        props: {},
      } as unknown as ExecutionContext);
  runs.set(context, run);
  return context;
}

/**
 * The request a nested run gets. A read (`body` undefined) has no body to share, and nothing in the app changes
 * a request: the run gets the request itself. A request with a body gets a copy carrying the outer run's bytes
 * (read once) with its URL, method and headers, all the app reads of it.
 */
export function nestedRequest(request: Request, body?: ArrayBuffer): Request {
  if (body === undefined) return request;
  return new Request(request.url, { method: request.method, headers: request.headers, body });
}

/** The nested run this request's context is, if a guard made it. */
export function nestedRunOf(c: { executionCtx: unknown }): NestedRun | undefined {
  try {
    return runs.get(c.executionCtx as object);
  } catch {
    // In-process callers may give no execution context at all: not a nested run.
    return undefined;
  }
}
