import {
  PreferenceKeyParamSchema,
  PreferenceSchema,
  PreferencesSchema,
  SetPreferenceBodySchema,
} from '../../schemas/preferences.schema';
import { contractsFor, empty, json } from '../contract';

const route = contractsFor('User preferences');

export const listPreferences = route.get('/user/preferences', 'signed-in', {
  summary: 'Your preferences: every documented key with its effective value, and your custom keys',
  responses: { 200: json(PreferencesSchema, 'Your preferences') },
});
export const setPreference = route.put('/user/preferences/{key}', 'signed-in', {
  summary: 'Set one of your preferences',
  params: PreferenceKeyParamSchema,
  body: SetPreferenceBodySchema,
  responses: { 200: json(PreferenceSchema, 'The stored preference') },
  errors: [400],
});
export const resetPreference = route.delete('/user/preferences/{key}', 'signed-in', {
  summary: 'Reset one of your preferences to its default',
  params: PreferenceKeyParamSchema,
  responses: { 204: empty('Back to the default (custom keys: removed)') },
  errors: [400],
});
