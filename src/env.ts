/**
 * `AppEnv`: the generated worker `Env` bindings plus the typed per-request variables every handler uses.
 */
import type { Config } from './config/config';
import type { Principal } from './auth/principal';
import type { Services } from './composition-root';
import type { DeferredWork } from './lib/deferred-work';
import type { Logger } from './lib/logger';
import type { NestedRun } from './http/speculation';

export type AppEnv = {
  Bindings: Env;
  Variables: {
    requestId: string;
    logger: Logger;
    config: Config;
    services: Services;
    /** The request's work for after its answer (held while the answer is speculative). */
    deferred: DeferredWork;
    /** Runs a copy of the request through the app that received it, as a nested run (http/speculation.ts). */
    dispatch: (request: Request, run: NestedRun) => Promise<Response>;
    /** Set by the authenticate middleware on routes that require a signed-in caller. */
    principal: Principal;
  };
};
