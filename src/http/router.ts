/**
 * Every router is an OpenAPIHono whose validation failures become 400 envelopes with field details,
 * so the OpenAPI document and the runtime checks come from the same zod schemas.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../env';
import { badRequest, issuesToDetails, summarizeIssues } from '../lib/errors';

const TARGET_NAMES: Record<string, string> = {
  json: 'request body',
  query: 'query parameter',
  param: 'path parameter',
  header: 'header',
  form: 'form body',
  cookie: 'cookie',
};

export function createRouter() {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (result.success) return;
      // The media-type gate already refused any body without a Content-Type, so here none was sent at all.
      if (result.target === 'json' && !c.req.header('Content-Type')) {
        throw badRequest('A request body is required: send JSON with Content-Type: application/json');
      }
      const details = issuesToDetails(result.error.issues);
      throw badRequest(summarizeIssues(TARGET_NAMES[result.target] ?? result.target, details), details);
    },
  });
}

export type Router = ReturnType<typeof createRouter>;
