/**
 * The per-request service graph: built once by the `services` middleware from the bindings, handed to
 * handlers as `c.get('services')`. Each service receives only what it uses.
 */
import type { Config } from '../config/config';
import type { Database } from '../db/client';
import { ApiKeysRepository } from '../repositories/api-keys.repository';
import { PreferencesRepository } from '../repositories/preferences.repository';
import { SessionsRepository } from '../repositories/sessions.repository';
import { SettingsRepository } from '../repositories/settings.repository';
import { UsersRepository } from '../repositories/users.repository';
import { ApiKeysService } from './api-keys.service';
import { AuthService } from './auth.service';
import { createCatalogReadServices } from './catalog-read.services';
import { EmailVerification } from './email-verification';
import { LoginThrottle } from './login-throttle';
import { OutboxMailer } from './mailer';
import { serverSecret } from './server-secret';
import { SettingsService } from './settings.service';
import { SetupService } from './setup.service';
import { UsersService } from './users.service';
import { PreferencesService } from './preferences.service';

export interface ServiceDeps {
  db: Database;
  config: Config;
  /** The object identifying this deployment's bindings (caches keyed per env). */
  env: object;
  defer: (work: Promise<unknown>) => void;
}

export function createServices({ db, config, env, defer }: ServiceDeps) {
  const repositories = {
    users: new UsersRepository(db),
    sessions: new SessionsRepository(db),
    apiKeys: new ApiKeysRepository(db),
    settings: new SettingsRepository(db),
  };
  const settings = new SettingsService(repositories.settings);
  const secret = () => serverSecret(env, config.LONGBOX_AUTH__SECRET, repositories.settings);
  const mailer = new OutboxMailer(db);
  const auth = new AuthService({
    users: repositories.users,
    sessions: repositories.sessions,
    apiKeys: repositories.apiKeys,
    settings,
    throttle: new LoginThrottle(db),
    verification: new EmailVerification(db, mailer),
    secret,
    defer,
  });
  return {
    db,
    repositories,
    settings,
    auth,
    mailer,
    setup: new SetupService(repositories.users, settings, auth),
    users: new UsersService(repositories.users, repositories.sessions, auth),
    apiKeys: new ApiKeysService(repositories.apiKeys, secret),
    preferences: new PreferencesService(new PreferencesRepository(db)),
    ...createCatalogReadServices(db),
    secret,
  };
}

export type Services = ReturnType<typeof createServices>;
