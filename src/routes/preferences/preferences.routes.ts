import {
  PreferenceKeyParamSchema,
  PreferenceSchema,
  PreferencesSchema,
  SetPreferenceBodySchema,
} from '../../schemas/preferences.schema';
import { contractsFor, empty, json } from '../contract';

const preferences = contractsFor('User preferences');

// biome-ignore format: a table of endpoints, one per line
export const contracts = {
  listPreferences: preferences.get('/user/preferences', 'signed-in', { summary: 'Your preferences: every documented key with its effective value, and your custom keys', 200: json(PreferencesSchema, 'Your preferences') }),
  setPreference: preferences.put('/user/preferences/{key}', 'signed-in', { summary: 'Set one of your preferences', params: PreferenceKeyParamSchema, body: SetPreferenceBodySchema, 200: json(PreferenceSchema, 'The stored preference'), errors: [400] }),
  resetPreference: preferences.delete('/user/preferences/{key}', 'signed-in', { summary: 'Reset one of your preferences to its default', params: PreferenceKeyParamSchema, 204: empty('Back to the default (custom keys: removed)'), errors: [400] }),
};
