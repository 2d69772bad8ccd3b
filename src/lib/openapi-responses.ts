/** OpenAPI response entries shared by routes: the error envelope per status, JSON bodies. */
import type { z } from '@hono/zod-openapi';
import { ERROR_KINDS, ErrorBodySchema, type ErrorStatus } from './errors';

const DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: 'Invalid request data',
  401: 'Authentication required or credentials invalid',
  403: 'Insufficient permissions',
  404: 'Resource not found',
  409: 'Resource conflict',
  413: 'Request body too large',
  422: 'Not processable for this resource',
  429: 'Too many requests',
  500: 'Server error',
  503: 'Service unavailable',
};

export function errorResponses<const S extends ErrorStatus>(...statuses: S[]) {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      { description: DESCRIPTIONS[status], content: { 'application/json': { schema: ErrorBodySchema } } },
    ]),
  ) as { [K in S]: { description: string; content: { 'application/json': { schema: typeof ErrorBodySchema } } } };
}

/** The statuses every authenticated route can answer. */
export const AUTH_ERRORS = [401, 403] as const;

export const jsonContent = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { 'application/json': { schema } },
});

export const ALL_ERROR_KINDS = Object.keys(ERROR_KINDS);

/** The credential kinds every authenticated route accepts (API.md §5). */
export const SECURITY: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { apiKeyHeader: [] }, { basicAuth: [] }];
