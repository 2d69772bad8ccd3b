/**
 * Every failure leaves as `{ error, message, details }` (DECISIONS.md §Errors). Unknown errors are
 * logged with the request id and answered with a generic 500: no stack trace or internals leak. A failure
 * of the platform that may pass (lib/platform-errors.ts) is a 503 with Retry-After instead.
 */
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { AppEnv } from '../env';
import { AppError, type ErrorBody } from '../lib/errors';
import { isTransientPlatformError, RETRY_AFTER_SECONDS, rootCauseMessage } from '../lib/platform-errors';

function fromHttpException(error: HTTPException): AppError {
  switch (error.status) {
    case 400:
      return new AppError(
        'BadRequest',
        /json/i.test(error.message) ? 'Malformed JSON in request body' : error.message || 'Bad request',
      );
    case 401:
      return new AppError('Unauthorized', error.message || 'Authentication required');
    case 404:
      return new AppError('NotFound', error.message || 'Not found');
    case 413:
      return new AppError('PayloadTooLarge', error.message || 'Request body is too large');
    case 415:
      return new AppError('BadRequest', 'Content-Type must be application/json');
    default:
      return new AppError(
        error.status >= 500 ? 'InternalServerError' : 'BadRequest',
        error.message || 'Request failed',
      );
  }
}

export function errorResponse(c: Context, error: AppError): Response {
  const body: ErrorBody = error.toBody();
  return c.json(body, error.status, error.headers);
}

export function handleError(error: Error, c: Context<AppEnv>): Response {
  if (error instanceof AppError) return errorResponse(c, error);
  if (error instanceof HTTPException) return errorResponse(c, fromHttpException(error));
  const logger = c.get('logger');
  // The root cause goes beside the message: drizzle's "Failed query: …" says which statement failed, only its
  // cause says why (a SQLite error, a dropped connection).
  const fields = {
    error: error.message,
    cause: rootCauseMessage(error),
    stack: error.stack,
    method: c.req.method,
    path: c.req.path,
  };
  if (isTransientPlatformError(error)) {
    // Storage or a service that may be back in a moment (issue 21): the client is told to retry. The log
    // names the platform's own error, not a wrapper's text (drizzle's carries the statement and its values).
    if (logger)
      logger.warn('platform unavailable', { error: rootCauseMessage(error), method: c.req.method, path: c.req.path });
    return errorResponse(
      c,
      new AppError(
        'ServiceUnavailable',
        'Storage or a service Longbox relies on is briefly unavailable; try again in a few seconds',
        {
          headers: { 'Retry-After': String(RETRY_AFTER_SECONDS) },
        },
      ),
    );
  }
  if (logger) logger.error('unhandled error', fields);
  else console.error(JSON.stringify({ level: 'error', msg: 'unhandled error', ...fields }));
  const requestId = c.get('requestId');
  return errorResponse(
    c,
    new AppError(
      'InternalServerError',
      `An unexpected error occurred${requestId ? ` (request id ${requestId})` : ''}; it has been logged`,
    ),
  );
}

export function handleNotFound(c: Context<AppEnv>): Response {
  return errorResponse(c, new AppError('NotFound', `Route ${c.req.method} ${c.req.path} not found`));
}
