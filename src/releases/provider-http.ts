/**
 * How Longbox talks to a release provider: JSON over HTTPS with a time limit on the whole exchange, requests
 * spaced by the provider's rate limit, and every way it can go wrong named — the provider asks us to wait
 * (429 with `Retry-After`), is down (5xx, no connection), does not answer in time, or answers something that
 * is not what its API documents (not JSON, or JSON of another shape). Only the release-poll queue consumer
 * uses it (src/releases/poll-batch.ts): no reader's request ever waits on a provider.
 */
import type { z } from 'zod';
import { VERSION } from '../version';

export type ProviderFailure = 'rate-limited' | 'unavailable' | 'timeout' | 'malformed' | 'not-found' | 'rejected';

export class ProviderError extends Error {
  constructor(
    readonly failure: ProviderFailure,
    message: string,
    /** How long the provider asked us to wait (429), or null. */
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'ProviderError';
  }

  /** Worth asking again later: the provider is busy, down or slow, its answer was not wrong. */
  get transient(): boolean {
    return this.failure === 'rate-limited' || this.failure === 'unavailable' || this.failure === 'timeout';
  }
}

export interface ProviderRequest {
  method: 'GET' | 'POST';
  url: string;
  /** Sent as JSON. */
  body?: unknown;
}

export interface ProviderHttp {
  /** The answer's JSON, checked against the shape the provider documents; throws ProviderError. */
  json<T>(request: ProviderRequest, schema: z.ZodType<T>): Promise<T>;
}

export interface ProviderHttpOptions {
  /** The provider's display name, for messages. */
  name: string;
  timeoutMs: number;
  /** Least time between the starts of two requests. */
  minIntervalMs: number;
  fetch?: typeof fetch;
}

/** A 429 without a usable `Retry-After` waits this long; a longer one than a day is capped. */
const DEFAULT_RETRY_AFTER_MS = 60_000;
const MAX_RETRY_AFTER_MS = 86_400_000;
/** Larger answers than this are not what a series or a page of releases looks like. */
const MAX_BODY_CHARS = 4_000_000;

/** `Retry-After` is seconds or an HTTP date (RFC 9110 §10.2.3). */
export function retryAfterMs(header: string | null, now = Date.now()): number {
  if (header) {
    const seconds = Number(header.trim());
    const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(header) - now;
    if (Number.isFinite(ms) && ms >= 0) return Math.min(Math.ceil(ms), MAX_RETRY_AFTER_MS);
  }
  return DEFAULT_RETRY_AFTER_MS;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The first problem zod found, as `path: message`. */
function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'unexpected shape';
  return `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`;
}

export function createProviderHttp({ name, timeoutMs, minIntervalMs, fetch: send = fetch }: ProviderHttpOptions) {
  let nextStart = 0;
  /** Holds a request back until the provider's interval since the previous one has passed. */
  async function pace(): Promise<void> {
    const now = Date.now();
    const wait = nextStart - now;
    nextStart = Math.max(now, nextStart) + minIntervalMs;
    if (wait > 0) await sleep(wait);
  }

  async function exchange(request: ProviderRequest): Promise<{ status: number; text: string; headers: Headers }> {
    await pace();
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const response = await send(request.url, {
        method: request.method,
        headers: {
          accept: 'application/json',
          'user-agent': `Longbox/${VERSION} (release tracking)`,
          ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal,
      });
      // The time limit covers the body too: a provider that sends headers and then stalls is a timeout.
      const text = await response.text();
      return { status: response.status, text, headers: response.headers };
    } catch (error) {
      if (signal.aborted) throw new ProviderError('timeout', `${name} did not answer within ${timeoutMs / 1000} s`);
      throw new ProviderError('unavailable', `${name} could not be reached: ${(error as Error).message ?? error}`);
    }
  }

  return {
    async json<T>(request: ProviderRequest, schema: z.ZodType<T>): Promise<T> {
      const { status, text, headers } = await exchange(request);
      if (status === 429) {
        const wait = retryAfterMs(headers.get('retry-after'));
        throw new ProviderError(
          'rate-limited',
          `${name} is rate limiting Longbox (429): asked to wait ${Math.round(wait / 1000)} s`,
          wait,
        );
      }
      if (status >= 500) throw new ProviderError('unavailable', `${name} answered ${status}`);
      if (status === 404) throw new ProviderError('not-found', `${name} has no such entry (404)`);
      if (status >= 400) throw new ProviderError('rejected', `${name} refused the request (${status})`);
      if (text.length > MAX_BODY_CHARS)
        throw new ProviderError('malformed', `${name} answered ${text.length} characters`);
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch (error) {
        throw new ProviderError('malformed', `${name} answered malformed JSON: ${(error as Error).message}`);
      }
      const parsed = schema.safeParse(body);
      if (!parsed.success) {
        throw new ProviderError(
          'malformed',
          `${name} answered JSON of an unexpected shape: ${firstIssue(parsed.error)}`,
        );
      }
      return parsed.data;
    },
  } satisfies ProviderHttp;
}
