/**
 * The per-request service graph: built once by the `services` middleware from the bindings, handed to
 * handlers as `c.get('services')`. Each service receives only what it uses.
 */
import type { Config } from '../config/config';
import type { Database } from '../db/client';
import { ApiKeysRepository } from '../repositories/api-keys.repository';
import { LibrariesRepository } from '../repositories/libraries.repository';
import { PreferencesRepository } from '../repositories/preferences.repository';
import { SessionsRepository } from '../repositories/sessions.repository';
import { SettingsRepository } from '../repositories/settings.repository';
import { UsersRepository } from '../repositories/users.repository';
import { createEventPublisher } from '../events/publisher';
import { TasksRepository } from '../repositories/tasks.repository';
import { ApiKeysService } from './api-keys.service';
import { ScanService } from './scan.service';
import { TasksService } from './tasks.service';
import { AuthService } from './auth.service';
import { createCatalogReadServices } from './catalog-read.services';
import { createMediaServices } from './media.services';
import { EmailVerification } from './email-verification';
import { LoginThrottle } from './login-throttle';
import { OutboxMailer } from './mailer';
import { serverSecret } from './server-secret';
import { SettingsService } from './settings.service';
import { SetupService } from './setup.service';
import { UsersService } from './users.service';
import { FilesystemService } from './filesystem.service';
import { LibrariesService } from './libraries.service';
import { UploadsService } from './uploads.service';
import { PreferencesService } from './preferences.service';
import { OpdsCatalogService } from '../opds/opds-catalog.service';
import { BookExtrasRepository } from '../opds/book-extras.repository';
import { KosyncService } from '../koreader/kosync.service';
import { readSingleSignOnConfig } from '../config/single-sign-on';
import { OidcIdentitiesRepository } from '../repositories/oidc-identities.repository';
import { OidcPendingLoginsRepository } from '../repositories/oidc-pending-logins.repository';
import { passwordSignInAllowed, SingleSignOnService } from './single-sign-on.service';
import { SsoAccountsService } from './sso-accounts.service';

export interface ServiceDeps {
  db: Database;
  config: Config;
  /** The object identifying this deployment's bindings (caches keyed per env). */
  env: Env;
  defer: (work: Promise<unknown>) => void;
}

export function createServices({ db, config, env, defer }: ServiceDeps) {
  const repositories = {
    users: new UsersRepository(db),
    sessions: new SessionsRepository(db),
    apiKeys: new ApiKeysRepository(db),
    settings: new SettingsRepository(db),
    libraries: new LibrariesRepository(db),
  };
  const settings = new SettingsService(repositories.settings);
  const secret = () => serverSecret(env, config.LONGBOX_AUTH__SECRET, repositories.settings);
  const mailer = new OutboxMailer(db);
  const sso = readSingleSignOnConfig(env);
  const auth = new AuthService({
    users: repositories.users,
    sessions: repositories.sessions,
    apiKeys: repositories.apiKeys,
    settings,
    throttle: new LoginThrottle(db),
    verification: new EmailVerification(db, mailer),
    secret,
    passwordSignIn: (role) => passwordSignInAllowed(sso, role),
    defer,
  });
  const ssoAccounts = new SsoAccountsService(repositories.users, new OidcIdentitiesRepository(db), auth);
  const events = createEventPublisher(env.EVENT_HUB, defer);
  const tasksRepository = new TasksRepository(db);
  const libraries = new LibrariesService(repositories.libraries, events);
  const catalogRead = createCatalogReadServices(db);
  return {
    db,
    repositories,
    settings,
    auth,
    mailer,
    setup: new SetupService(repositories.users, settings, auth),
    ssoAccounts,
    singleSignOn: new SingleSignOnService({
      config: sso,
      pending: new OidcPendingLoginsRepository(db),
      accounts: ssoAccounts,
      auth,
      users: repositories.users,
      defer,
    }),
    users: new UsersService(repositories.users, repositories.sessions, auth),
    apiKeys: new ApiKeysService(repositories.apiKeys, secret),
    preferences: new PreferencesService(new PreferencesRepository(db)),
    libraries,
    uploads: new UploadsService(libraries, env.LIBRARY),
    filesystem: new FilesystemService(env.LIBRARY, config.LONGBOX_STORAGE__BUCKET_NAME),
    events,
    scans: new ScanService(env.LIBRARY_SCAN, repositories.libraries, tasksRepository),
    tasks: new TasksService(db, tasksRepository, repositories.libraries, env.TASK_RUNNER, env.LIBRARY_SCAN, events),
    ...catalogRead,
    opdsCatalog: new OpdsCatalogService({ libraries, ...catalogRead, extras: new BookExtrasRepository(db) }),
    kosync: new KosyncService(catalogRead.readProgress),
    ...createMediaServices({ db, env, settings, events, defer }),
    secret,
  };
}

export type Services = ReturnType<typeof createServices>;
