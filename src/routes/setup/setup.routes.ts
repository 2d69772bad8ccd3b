import { createRoute } from '@hono/zod-openapi';
import { errorResponses, jsonBody, jsonContent } from '../../lib/openapi-responses';
import { LoginResponseSchema, SetupInitializeBodySchema, SetupStatusSchema } from '../../schemas/auth.schema';

export const getSetupStatus = createRoute({
  method: 'get',
  path: '/setup/status',
  tags: ['Setup'],
  summary: 'Whether initial setup is needed',
  responses: { 200: jsonContent(SetupStatusSchema, 'Setup status') },
});

export const initializeSetup = createRoute({
  method: 'post',
  path: '/setup/initialize',
  tags: ['Setup'],
  summary: 'Create the initial admin user and sign in',
  request: { body: jsonBody(SetupInitializeBodySchema) },
  responses: {
    201: jsonContent(LoginResponseSchema, 'Admin created; its session'),
    ...errorResponses(400, 409),
  },
});
