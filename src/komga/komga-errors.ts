/**
 * Errors under /komga look like Spring Boot's (what Komga answers and its clients log):
 * `{timestamp, status, error, message, path}` with the same status codes Longbox's API uses. Services
 * throw the usual AppError; only the rendering differs. A 401 carries the Basic challenge Mihon waits
 * for before it sends credentials (DECISIONS.md §Reader apps).
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { AppEnv } from '../env';
import { AppError, badRequest } from '../lib/errors';
import { rootCauseMessage } from '../lib/platform-errors';
import { REALM } from '../middleware/authenticate';

export const BASIC_CHALLENGE = `Basic realm="${REALM}"`;

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export const komgaBadRequest = (message: string) => badRequest(message);

export function komgaErrorResponse(c: Context<AppEnv>, status: number, message: string, headers = {}): Response {
  const body = {
    timestamp: new Date().toISOString(),
    status,
    error: REASONS[status] ?? 'Error',
    message,
    path: c.req.path,
  };
  const extra: Record<string, string> = { ...headers };
  if (status === 401) extra['WWW-Authenticate'] = BASIC_CHALLENGE;
  return c.json(body, status as 400, extra);
}

export function handleKomgaError(error: Error, c: Context<AppEnv>): Response {
  if (error instanceof AppError) return komgaErrorResponse(c, error.status, error.message, error.headers);
  if (error instanceof HTTPException) {
    const status = Math.min(error.status, 500);
    const message = error.status === 400 ? 'Malformed request body' : error.message || 'Request failed';
    return komgaErrorResponse(c, status, message);
  }
  const logger = c.get('logger');
  logger?.error('unhandled error', {
    error: error.message,
    cause: rootCauseMessage(error),
    stack: error.stack,
    path: c.req.path,
  });
  return komgaErrorResponse(
    c,
    500,
    `An unexpected error occurred (request id ${c.get('requestId')}); it has been logged`,
  );
}
