import { GetPageQuerySchema, pageEnvelopeSchema } from '../../lib/pagination';
import { IdParamSchema } from '../../schemas/path-params.schema';
import { CreateUserBodySchema, UpdateUserBodySchema, UserSchema } from '../../schemas/user.schema';
import { contractsFor, empty, json } from '../contract';

const route = contractsFor('Users');

export const UserPageSchema = pageEnvelopeSchema(UserSchema, 'UserPage');

export const listUsers = route.get('/users', 'UsersRead', {
  summary: 'List users (UsersRead)',
  query: GetPageQuerySchema,
  responses: { 200: json(UserPageSchema, 'A page of users') },
  errors: [400],
});
export const createUser = route.post('/users', 'UsersWrite', {
  summary: 'Create a user (UsersWrite)',
  body: CreateUserBodySchema,
  responses: { 201: json(UserSchema, 'The new user') },
  errors: [400, 409],
});
export const getUser = route.get('/users/{id}', 'UsersRead', {
  summary: 'A user (UsersRead)',
  params: IdParamSchema,
  responses: { 200: json(UserSchema, 'The user') },
  errors: [400, 404],
});
export const updateUser = route.put('/users/{id}', 'UsersWrite', {
  summary: 'Change a user (UsersWrite); omitted fields stay as they are',
  description:
    'A new password, role, custom permissions or active flag takes effect on the next request, including for ' +
    'the user’s API keys and cached Basic credentials. A new password or a deactivation ends the user’s sessions. ' +
    'The last active admin cannot be demoted or deactivated (409).',
  params: IdParamSchema,
  body: UpdateUserBodySchema,
  responses: { 200: json(UserSchema, 'The updated user') },
  errors: [400, 404, 409],
});
export const deleteUser = route.delete('/users/{id}', 'UsersDelete', {
  summary: 'Delete a user with their sessions, API keys, progress and preferences (UsersDelete)',
  description: 'The last active admin cannot be deleted (409).',
  params: IdParamSchema,
  responses: { 204: empty('Deleted') },
  errors: [400, 404, 409],
});
