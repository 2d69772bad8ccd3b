import { LoginResponseSchema, SetupInitializeBodySchema, SetupStatusSchema } from '../../schemas/auth.schema';
import { contractsFor, json } from '../contract';

const route = contractsFor('Setup');

export const getSetupStatus = route.get('/setup/status', 'public', {
  summary: 'Whether initial setup is needed',
  responses: { 200: json(SetupStatusSchema, 'Setup status') },
});
export const initializeSetup = route.post('/setup/initialize', 'public', {
  summary: 'Create the initial admin user and sign in',
  body: SetupInitializeBodySchema,
  responses: { 201: json(LoginResponseSchema, 'Admin created; its session') },
  errors: [400, 409],
});
