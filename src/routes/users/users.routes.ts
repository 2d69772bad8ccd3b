import { GetPageQuerySchema, pageEnvelopeSchema } from '../../lib/pagination';
import { IdParamSchema } from '../../schemas/path-params.schema';
import { CreateUserBodySchema, UpdateUserBodySchema, UserSchema } from '../../schemas/user.schema';
import { contractsFor, empty, json } from '../contract';

const users = contractsFor('Users');
const UPDATE =
  'A new password, role, custom permissions or active flag takes effect on the next request, including for ' +
  'the user’s API keys and cached Basic credentials. A new password or a deactivation ends the user’s sessions. ' +
  'The last active admin cannot be demoted or deactivated (409).';

export const UserPageSchema = pageEnvelopeSchema(UserSchema, 'UserPage');

// biome-ignore format: a table of endpoints, one per line
export const contracts = {
  listUsers: users.get('/users', 'UsersRead', { summary: 'List users (UsersRead)', query: GetPageQuerySchema, 200: json(UserPageSchema, 'A page of users'), errors: [400] }),
  createUser: users.post('/users', 'UsersWrite', { summary: 'Create a user (UsersWrite)', body: CreateUserBodySchema, 201: json(UserSchema, 'The new user'), errors: [400, 409] }),
  getUser: users.get('/users/{id}', 'UsersRead', { summary: 'A user (UsersRead)', params: IdParamSchema, 200: json(UserSchema, 'The user'), errors: [400, 404] }),
  updateUser: users.put('/users/{id}', 'UsersWrite', { summary: 'Change a user (UsersWrite); omitted fields stay as they are', description: UPDATE, params: IdParamSchema, body: UpdateUserBodySchema, 200: json(UserSchema, 'The updated user'), errors: [400, 404, 409] }),
  deleteUser: users.delete('/users/{id}', 'UsersDelete', { summary: 'Delete a user with their sessions, API keys, progress and preferences (UsersDelete)', description: 'The last active admin cannot be deleted (409).', params: IdParamSchema, 204: empty('Deleted'), errors: [400, 404, 409] }),
};
