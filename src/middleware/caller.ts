/**
 * Who a guarded route answers: the caller its credentials name, checked against the database for this
 * request — and, when the isolate remembers the credential, with the handler started before that check
 * returns (docs/ARCHITECTURE.md, "The credential check beside the request"; DECISIONS.md §Far readers).
 *
 * The handler then runs in a nested run of the request (http/speculation.ts) as the remembered principal,
 * its work for after the answer held (lib/deferred-work.ts), while the check runs. When both are done:
 * - the check refused the credential: its error (the 401) is the answer; the speculative answer's body is
 *   cancelled unread and its held work dropped;
 * - the check found another caller (other facts: `callerFacts`), or a guarded write found the credential
 *   changed: the speculative answer is dropped and the handler runs again here, as the checked caller;
 * - otherwise the speculative answer is the answer and its held work starts.
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

/**
 * Resolves once the request's caller is checked: at once outside a speculative run (its guard awaited the
 * check), else when the check found the caller the run answers as (rejects otherwise). The one write a read
 * may need before answering (Komga's cookie session) waits for it, and so does every write of a
 * `checked-writes` route, so nothing is written for a refused or changed caller.
 */
export function whenChecked(c: Context<AppEnv>): Promise<void> {
  return nestedRunOf(c)?.checked ?? Promise.resolve();
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

/** The nested run: the principal it was given, admitted as any other (the route's permission still applies). */
async function runNested(c: Context<AppEnv>, next: Next, rules: CallerRules, nested: NestedRun) {
  await runAs(c, next, rules, nested.principal);
  if (c.error instanceof CredentialChangedError) nested.staleCredential = true;
  return undefined;
}

async function speculate(
  c: Context<AppEnv>,
  next: Next,
  rules: CallerRules,
  check: CredentialCheck,
  remembered: CheckedCaller,
): Promise<Response | undefined> {
  const deferred = c.get('deferred');
  // A body is read once: the nested run gets a copy, and a run here reads Hono's cached one.
  const body = READS.has(c.req.method) ? undefined : await c.req.arrayBuffer();
  const run: NestedRun = {
    principal: remembered.principal,
    shared: {
      requestId: c.get('requestId'),
      config: c.get('config'),
      logger: c.get('logger'),
      services: c.get('services'),
      deferred,
      dispatch: c.get('dispatch'),
    },
    staleCredential: false,
    checked: check.verified.then((verified) => {
      if (verified.facts !== remembered.facts) throw new CredentialChangedError();
    }),
  };
  // Awaited only by a run that needs it; a refusal is the outer request's to report.
  run.checked.catch(() => undefined);
  deferred.hold();
  const [verified, answer] = await Promise.allSettled([
    check.verified,
    c.get('dispatch')(nestedRequest(c.req.raw, body), run),
  ]);
  if (verified.status === 'fulfilled' && answer.status === 'fulfilled' && !run.staleCredential) {
    if (verified.value.facts === remembered.facts) {
      deferred.release();
      return answer.value;
    }
  }
  deferred.drop();
  if (answer.status === 'fulfilled') answer.value.body?.cancel().catch(() => undefined);
  if (verified.status === 'rejected') throw verified.reason;
  return runAs(c, next, rules, verified.value.principal);
}
