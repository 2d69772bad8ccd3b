/**
 * Who a guarded route answers: the caller its credentials name, checked against the database for this
 * request — and, when the isolate remembers the credential, with the handler started before that check
 * returns (docs/ARCHITECTURE.md, "The credential check beside the request"; DECISIONS.md §Far readers).
 *
 * The handler then runs in place as the remembered principal, its work for after the answer held
 * (lib/deferred-work.ts), while the check runs; its answer stays in the context until both are done:
 * - the check found the caller it ran as: its answer is the answer and its held work starts;
 * - the check refused the credential, found another caller (other facts: `callerFacts`), or a guarded write
 *   found the credential changed: the speculative answer's body is cancelled unread, its held work dropped,
 *   and the request runs once more (http/speculation.ts) in a context of its own, with the refusal or as the
 *   checked caller; that run's answer replaces the speculative one whole, so none of its headers survive.
 * Without a remembered principal (or where the route may not run before the check) the check comes first.
 */
import type { Context, Next } from 'hono';
import type { Principal } from '../auth/principal';
import type { AppEnv } from '../env';
import { type NestedRun, nestedRequest, nestedRunOf } from '../http/speculation';
import { CredentialChangedError, unauthorized } from '../lib/errors';
import type { CredentialCheck } from '../services/authentication.service';
import type { CheckedCaller } from '../services/principal-cache';

/**
 * What may run before the check: `reads` — GET and HEAD (handlers that write nothing before answering);
 * `read-only` — the handler only reads whatever the method (a search or a filtered list sent as a POST
 * body); `guarded-writes` — also a write whose statements test the credential themselves, so a stale
 * principal writes nothing (repositories/credential-guard.ts); `checked-writes` — a write whose reads decide
 * what it writes: they run beside the check, and it waits for the check (`whenChecked`) before it writes
 * (docs/DECISIONS.md §Far readers, "Writes wait for the check"); `never` — the check always comes first.
 */
export type Speculation = 'reads' | 'read-only' | 'guarded-writes' | 'checked-writes' | 'never';

export interface CallerRules {
  /** Names and starts checking the request's credentials; null when it sent none. */
  check: () => Promise<CredentialCheck | null>;
  /** The caller of a request without credentials of its own (Cloudflare Access), if any. */
  fallback?: () => Promise<Principal | null>;
  /** Throws for a caller the route does not admit (a 403). */
  admit: (principal: Principal) => void;
  speculation: Speculation;
}

const READS = new Set(['GET', 'HEAD']);

function mayStartBeforeCheck(method: string, speculation: Speculation): boolean {
  if (speculation === 'never') return false;
  return READS.has(method) || speculation !== 'reads';
}

/** The credential checks the speculative handlers running in these contexts wait for (`whenChecked`). */
const speculating = new WeakMap<object, Promise<void>>();

/**
 * Resolves once the request's caller is checked: at once outside a speculative run (its guard awaited the
 * check, or a nested run was told the verdict), else when the check found the caller the run answers as
 * (rejects otherwise). The one write a read may need before answering (Komga's cookie session) waits for it,
 * and so does every write of a `checked-writes` route, so nothing is written for a refused or changed caller.
 */
export function whenChecked(c: Context<AppEnv>): Promise<void> {
  return speculating.get(c) ?? Promise.resolve();
}

/** Resolves the caller and runs the rest of the request as them; see the module comment. */
export async function asCaller(c: Context<AppEnv>, next: Next, rules: CallerRules): Promise<Response | undefined> {
  const nested = nestedRunOf(c);
  if (nested) return runNested(c, next, rules, nested);
  const check = await rules.check();
  if (!check) {
    const principal = await rules.fallback?.();
    if (!principal) throw unauthorized('Authentication required');
    return runAs(c, next, rules, principal);
  }
  if (check.remembered && mayStartBeforeCheck(c.req.method, rules.speculation)) {
    return speculate(c, next, rules, check, check.remembered);
  }
  return runAs(c, next, rules, (await check.verified).principal);
}

async function runAs(c: Context<AppEnv>, next: Next, rules: CallerRules, principal: Principal) {
  rules.admit(principal);
  c.set('principal', principal);
  await next();
  return undefined;
}

/** The run again: the check's refusal, or its caller admitted as any other (the route's permission still applies). */
async function runNested(c: Context<AppEnv>, next: Next, rules: CallerRules, nested: NestedRun) {
  if ('refusal' in nested.verdict) throw nested.verdict.refusal;
  return runAs(c, next, rules, nested.verdict.principal);
}

async function speculate(
  c: Context<AppEnv>,
  next: Next,
  rules: CallerRules,
  check: CredentialCheck,
  remembered: CheckedCaller,
): Promise<Response | undefined> {
  const deferred = c.get('deferred');
  // A body is read once, into Hono's cache: the handler reads it there, and a run again gets a copy.
  const body = READS.has(c.req.method) ? undefined : await c.req.arrayBuffer();
  const checked = check.verified.then((verified) => {
    if (verified.facts !== remembered.facts) throw new CredentialChangedError();
  });
  // Awaited only by a handler that needs it; a refusal is this guard's to report.
  checked.catch(() => undefined);
  speculating.set(c, checked);
  let started = false;
  const startHandler = () => {
    started = true;
    return next();
  };
  deferred.hold();
  const [verified, ran] = await Promise.allSettled([
    check.verified,
    runAs(c, startHandler, rules, remembered.principal),
  ]);
  speculating.delete(c);
  const staleCredential = started && c.error instanceof CredentialChangedError;
  if (verified.status === 'fulfilled' && verified.value.facts === remembered.facts && !staleCredential) {
    if (ran.status === 'rejected') {
      // The remembered caller was not admitted (a 403), and the check agrees it is this caller.
      deferred.drop();
      throw ran.reason;
    }
    deferred.release();
    return undefined;
  }
  deferred.drop();
  if (!started) {
    // Not admitted as the remembered caller, so nothing ran: the check's verdict decides here.
    if (verified.status === 'rejected') throw verified.reason;
    return runAs(c, next, rules, verified.value.principal);
  }
  // The speculative answer never leaves: its body is cancelled unread, and a run of its own answers instead.
  c.res.body?.cancel().catch(() => undefined);
  const run: NestedRun = {
    verdict: verified.status === 'fulfilled' ? { principal: verified.value.principal } : { refusal: verified.reason },
    shared: {
      requestId: c.get('requestId'),
      config: c.get('config'),
      logger: c.get('logger'),
      services: c.get('services'),
      deferred,
      dispatch: c.get('dispatch'),
    },
  };
  const answer = await c.get('dispatch')(nestedRequest(c.req.raw, body), run);
  if (verified.status === 'fulfilled') c.set('principal', verified.value.principal);
  c.error = undefined;
  // Cleared first: setting a response over another would copy the speculative one's headers onto it.
  c.res = undefined;
  c.res = answer;
  return undefined;
}
