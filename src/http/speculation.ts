/**
 * A request run once more through the app, as a caller its guard is told rather than checks
 * (docs/ARCHITECTURE.md, "The credential check beside the request"): the principal this isolate found
 * when it last checked the credential, while the check runs beside (middleware/caller.ts); or the verified
 * principal, when a write made as the remembered one must be made again. The copy shares the outer request's
 * service graph, logger and id, but has a Hono context of its own, so nothing it sets reaches the outer
 * answer unless the guard chooses its response.
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
  /** Who the run answers as: admitted by its guard without a check (the permission is still checked). */
  principal: Principal;
  /** The outer request's variables, reused as they are. */
  shared: Shared;
  /** Set by the run's guard when a guarded write found that the credential no longer grants what it assumed. */
  staleCredential: boolean;
  /**
   * Settles when the credential check does: fulfilled when it found the caller the run answers as, rejected
   * otherwise. A write a read route cannot do without (a cookie's session row) waits for it (caller.ts
   * `whenChecked`).
   */
  checked: Promise<void>;
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
