import { createRoute } from '@hono/zod-openapi';
import { AUTH_ERRORS, errorResponses, jsonBody, jsonContent } from '../../lib/openapi-responses';
import { GetPageQuerySchema, pageEnvelopeSchema } from '../../lib/pagination';
import { authenticate } from '../../middleware/authenticate';
import { IdParamSchema } from '../../schemas/path-params.schema';
import { CreateUserBodySchema, UpdateUserBodySchema, UserSchema } from '../../schemas/user.schema';

const tags = ['Users'];
const security: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { apiKeyHeader: [] }, { basicAuth: [] }];

export const UserPageSchema = pageEnvelopeSchema(UserSchema, 'UserPage');

export const listUsers = createRoute({
  method: 'get',
  path: '/users',
  tags,
  security,
  summary: 'List users (UsersRead)',
  middleware: [authenticate('UsersRead')] as const,
  request: { query: GetPageQuerySchema },
  responses: { 200: jsonContent(UserPageSchema, 'A page of users'), ...errorResponses(400, ...AUTH_ERRORS) },
});

export const createUser = createRoute({
  method: 'post',
  path: '/users',
  tags,
  security,
  summary: 'Create a user (UsersWrite)',
  middleware: [authenticate('UsersWrite')] as const,
  request: { body: jsonBody(CreateUserBodySchema) },
  responses: { 201: jsonContent(UserSchema, 'The new user'), ...errorResponses(400, ...AUTH_ERRORS, 409) },
});

export const getUser = createRoute({
  method: 'get',
  path: '/users/{id}',
  tags,
  security,
  summary: 'A user (UsersRead)',
  middleware: [authenticate('UsersRead')] as const,
  request: { params: IdParamSchema },
  responses: { 200: jsonContent(UserSchema, 'The user'), ...errorResponses(400, ...AUTH_ERRORS, 404) },
});

export const updateUser = createRoute({
  method: 'put',
  path: '/users/{id}',
  tags,
  security,
  summary: 'Change a user (UsersWrite); omitted fields stay as they are',
  description:
    'A new password, role, custom permissions or active flag takes effect on the next request, including for ' +
    'the user’s API keys and cached Basic credentials. A new password or a deactivation ends the user’s sessions. ' +
    'The last active admin cannot be demoted or deactivated (409).',
  middleware: [authenticate('UsersWrite')] as const,
  request: { params: IdParamSchema, body: jsonBody(UpdateUserBodySchema) },
  responses: { 200: jsonContent(UserSchema, 'The updated user'), ...errorResponses(400, ...AUTH_ERRORS, 404, 409) },
});

export const deleteUser = createRoute({
  method: 'delete',
  path: '/users/{id}',
  tags,
  security,
  summary: 'Delete a user with their sessions, API keys, progress and preferences (UsersDelete)',
  description: 'The last active admin cannot be deleted (409).',
  middleware: [authenticate('UsersDelete')] as const,
  request: { params: IdParamSchema },
  responses: { 204: { description: 'Deleted' }, ...errorResponses(400, ...AUTH_ERRORS, 404, 409) },
});
