/**
 * A request run once more through the app, as a caller its guard is told rather than checks
 * (docs/ARCHITECTURE.md, "The credential check beside the request"): the principal this isolate found
 * when it last checked the credential, while the check runs beside (middleware/caller.ts); or the verified
 * principal, when a write made as the remembered one must be made again. The copy shares the outer request's
 * service graph, logger and id, but has a Hono context of its own, so nothing it sets reaches the outer
 * answer unless the guard chooses its response.
 *
 * The mark is a WeakMap entry on a Request object the guard itself made: no header, cookie or body a client
 * sends can produce it.
 */
import type { Principal } from '../auth/principal';
import type { AppEnv } from '../env';

type Shared = Pick<AppEnv['Variables'], 'requestId' | 'config' | 'logger' | 'services' | 'deferred' | 'dispatch'>;

export interface NestedRun {
  /** Who the run answers as: admitted by its guard without a check (the permission is still checked). */
  principal: Principal;
  /** The outer request's variables, reused as they are. */
  shared: Shared;
  /** Set by the run's guard when a guarded write found that the credential no longer grants what it assumed. */
  staleCredential: boolean;
}

const runs = new WeakMap<Request, NestedRun>();

/** A copy of `request` for a nested run (`body`: the outer request's, read once, for a write). */
export function nestedRequest(request: Request, run: NestedRun, body?: ArrayBuffer): Request {
  const copy =
    body === undefined
      ? new Request(request)
      : new Request(request.url, { method: request.method, headers: request.headers, body });
  runs.set(copy, run);
  return copy;
}

/** The nested run this request is, if the guard made it. */
export const nestedRunOf = (request: Request): NestedRun | undefined => runs.get(request);
