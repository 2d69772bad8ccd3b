import { LoginResponseSchema, SetupInitializeBodySchema, SetupStatusSchema } from '../../schemas/auth.schema';
import { contractsFor, json } from '../contract';

const setup = contractsFor('Setup');

// biome-ignore format: a table of endpoints, one per line
export const contracts = {
  getSetupStatus: setup.get('/setup/status', 'public', { summary: 'Whether initial setup is needed', 200: json(SetupStatusSchema, 'Setup status') }),
  initializeSetup: setup.post('/setup/initialize', 'public', { summary: 'Create the initial admin user and sign in', body: SetupInitializeBodySchema, 201: json(LoginResponseSchema, 'Admin created; its session'), errors: [400, 409] }),
};
