/**
 * The composition root: the per-request service graph, built once by the request-context middleware from the
 * bindings and handed to handlers as `c.get('services')`. Each service receives only what it uses. It sits
 * above the services (docs/ARCHITECTURE.md) because it also builds the protocol services of OPDS and KOReader.
 */
import type { Role } from './auth/permissions';
import type { Config } from './config/config';
import type { Database } from './db/client';
import type { Defer } from './lib/deferred-work';
import type { ClaimedPoll } from './repositories/release-polls.repository';
import { ApiKeysRepository } from './repositories/api-keys.repository';
import { DuplicatesRepository } from './repositories/duplicates.repository';
import { EmailOutboxRepository } from './repositories/email-outbox.repository';
import { HealthRepository } from './repositories/health.repository';
import { LibrariesRepository } from './repositories/libraries.repository';
import { PreferencesRepository } from './repositories/preferences.repository';
import { SessionsRepository } from './repositories/sessions.repository';
import { SignInRepository } from './repositories/sign-in.repository';
import { SettingsRepository } from './repositories/settings.repository';
import { UsersRepository } from './repositories/users.repository';
import { createEventPublisher } from './events/publisher';
import { TasksRepository } from './repositories/tasks.repository';
import { ApiKeysService } from './services/api-keys.service';
import { ScanService } from './services/scan.service';
import { TasksService } from './services/tasks.service';
import { AccountsService } from './services/accounts.service';
import { AuthenticationService } from './services/authentication.service';
import { AuthenticationActivityService } from './services/authentication-activity.service';
import { AuthenticationActivityRepository } from './repositories/authentication-activity.repository';
import { createCatalogReadServices } from './services/catalog-read.services';
import { createListServices } from './services/lists.services';
import { createMediaServices } from './services/media.services';
import { EmailVerification } from './services/email-verification';
import { LoginThrottle } from './services/login-throttle';
import { OutboxMailer } from './services/mailer';
import { serverSecret } from './services/server-secret';
import { SettingsService } from './services/settings.service';
import { SetupService } from './services/setup.service';
import { UsersService } from './services/users.service';
import { UserAccessService } from './services/user-access.service';
import { SharingTagsService } from './services/sharing-tags.service';
import { SharingLabelsRepository } from './repositories/sharing-labels.repository';
import { UserAccessRepository } from './repositories/user-access.repository';
import { FilesystemService } from './services/filesystem.service';
import { LibrariesService } from './services/libraries.service';
import { UploadsService } from './services/uploads.service';
import { PreferencesService } from './services/preferences.service';
import { readingStatsService } from './services/reading-stats.service';
import { OpdsCatalogService } from './opds/opds-catalog.service';
import { BookExtrasRepository, feedExtrasRead } from './repositories/book-extras.repository';
import { KosyncService } from './koreader/kosync.service';
import { KoboSyncService, pageDrawer, pageFitOf } from './kobo/kobo-sync.service';
import { KoboSyncRepository } from './repositories/kobo-sync.repository';
import { epubPageTypes } from './media/comic-epub/comic-epub';
import { ReadingStatisticsRepository } from './repositories/reading-statistics.repository';
import { ReadingSessionsRepository } from './repositories/reading-sessions.repository';
import { FOLD_RULES } from './reading/rules';
import { ComicEpubService } from './services/comic-epub.service';
import { readSingleSignOnConfig } from './auth/single-sign-on-config';
import { OidcIdentitiesRepository } from './repositories/oidc-identities.repository';
import { OidcPendingLoginsRepository } from './repositories/oidc-pending-logins.repository';
import { passwordSignInAllowed, SingleSignOnService } from './services/single-sign-on.service';
import { SsoAccountsService } from './services/sso-accounts.service';
import { MetadataRepository } from './repositories/metadata.repository';
import { CatalogWriter } from './repositories/catalog-writer.repository';
import { MetadataService } from './services/metadata.service';
import { EventAudienceRepository } from './repositories/event-audience.repository';
import { EventStreamsService } from './services/event-streams.service';
import { dispatchDuePolls, queueClaimedPolls } from './releases/poll-dispatch';
import { createLogger } from './lib/logger';
import { ReleaseLedgerRepository } from './repositories/release-ledger.repository';
import { ReleaseSourcesRepository } from './repositories/release-sources.repository';
import { SeriesTrackingRepository } from './repositories/series-tracking.repository';
import { ReleaseSourcesService } from './services/release-sources.service';
import { ReleasesService } from './services/releases.service';
import { TrackingService } from './services/tracking.service';
import { DeletableFilesRepository } from './repositories/deletable-files.repository';
import { FileDeletionService } from './services/file-deletion.service';
import { createPeerImportServices } from './services/peer-import';

export interface ServiceDeps {
  /** The request's database: the primary, or its read session (db/read-session.ts). */
  db: Database;
  /** The primary itself (the same object without read replicas). */
  primary: Database;
  config: Config;
  /** The object identifying this deployment's bindings (caches keyed per env). */
  env: Env;
  /** Work for after the answer, held while the answer is made before the credential check (lib/deferred-work.ts). */
  defer: Defer;
  /** Work for after the answer that belongs to the credential check itself: never held. */
  deferUnheld: Defer;
}

export function createServices({ db, primary, config, env, defer, deferUnheld }: ServiceDeps) {
  const repositories = {
    users: new UsersRepository(db),
    sessions: new SessionsRepository(db),
    apiKeys: new ApiKeysRepository(db),
    settings: new SettingsRepository(db),
    libraries: new LibrariesRepository(db),
    health: new HealthRepository(db),
  };
  const settings = new SettingsService(repositories.settings);
  const secret = () => serverSecret(env, config.LONGBOX_AUTH__SECRET, repositories.settings);
  const mailer = new OutboxMailer(new EmailOutboxRepository(db));
  const sso = readSingleSignOnConfig(env);
  const passwordSignIn = (role: Role) => passwordSignInAllowed(sso, role);
  const authenticationActivity = new AuthenticationActivityService(new AuthenticationActivityRepository(db));
  const signIns = new SignInRepository(db);
  const auth = new AuthenticationService({
    users: repositories.users,
    sessions: repositories.sessions,
    apiKeys: repositories.apiKeys,
    settings,
    throttle: new LoginThrottle(signIns),
    signIns,
    activity: authenticationActivity,
    secret,
    passwordSignIn,
    defer: deferUnheld,
    // With read replicas a credential is checked on the replica, and on the primary at least once a minute.
    primary:
      primary === db
        ? null
        : {
            users: new UsersRepository(primary),
            sessions: new SessionsRepository(primary),
            apiKeys: new ApiKeysRepository(primary),
          },
  });
  const accounts = new AccountsService({
    users: repositories.users,
    sessions: repositories.sessions,
    settings,
    verification: new EmailVerification(repositories.users, mailer),
    passwordSignIn,
  });
  const userAccessRepository = new UserAccessRepository(db);
  const ssoAccounts = new SsoAccountsService(
    repositories.users,
    new OidcIdentitiesRepository(db),
    accounts,
    auth,
    userAccessRepository,
  );
  const events = createEventPublisher(env.EVENT_HUB, defer);
  const tasksRepository = new TasksRepository(db);
  const libraries = new LibrariesService(repositories.libraries, events);
  const catalogRead = createCatalogReadServices(db);
  const lists = createListServices(db, { ...catalogRead, events });
  const sharingLabels = new SharingLabelsRepository(db);
  const catalogWriter = new CatalogWriter(db);
  const userAccess = new UserAccessService(userAccessRepository, sharingLabels, libraries);
  const sharingTags = new SharingTagsService(sharingLabels, catalogRead.seriesQuery, catalogWriter);
  // Poll-now only queues: providers are asked by the release-poll consumer, never inside a request.
  const queuePolls = (claimed: readonly ClaimedPoll[]) => queueClaimedPolls(env.RELEASE_POLL, claimed, new Date());
  const pollDue = async () => {
    // As a cron tick does: the rest of what poll-now made due follows at the next ticks, at the providers' pace.
    const queued = await dispatchDuePolls(db, env.RELEASE_POLL, new Date(), {
      limit: config.LONGBOX_RELEASES__POLLS_PER_TICK,
      env,
    });
    if (queued.polls > 0)
      createLogger({ job: 'release poll' }, config.LONGBOX_LOG__LEVEL).info('queued polls', { ...queued });
    return queued.polls;
  };
  const metadata = new MetadataService(new MetadataRepository(db), catalogWriter, events, sharingTags);
  const media = createMediaServices({ db, env, settings, events, defer });
  const koboFit = pageFitOf(config.LONGBOX_KOBO__PAGE_SIZE);
  return {
    db,
    repositories,
    kobo: new KoboSyncService({
      fit: koboFit,
      drawPage: pageDrawer(media.pages),
      repo: new KoboSyncRepository(db, epubPageTypes(koboFit)),
      statistics: new ReadingStatisticsRepository(db, new ReadingSessionsRepository(db, FOLD_RULES)),
      progress: catalogRead.readProgress,
      comicEpub: new ComicEpubService(env.LIBRARY),
      files: media.bookFiles,
      limit: config.LONGBOX_KOBO__SYNC_ITEM_LIMIT,
    }),
    settings,
    auth,
    authenticationActivity,
    accounts,
    mailer,
    setup: new SetupService(repositories.users, settings, accounts, auth),
    ssoAccounts,
    singleSignOn: new SingleSignOnService({
      config: sso,
      pending: new OidcPendingLoginsRepository(db),
      accounts: ssoAccounts,
      authentication: auth,
    }),
    users: new UsersService(repositories.users, repositories.sessions, accounts, userAccess, events),
    userAccess,
    sharingTags,
    apiKeys: new ApiKeysService(repositories.apiKeys, libraries, secret),
    preferences: new PreferencesService(new PreferencesRepository(db)),
    libraries,
    uploads: new UploadsService(libraries, env.LIBRARY),
    filesystem: new FilesystemService(env.LIBRARY, config.LONGBOX_STORAGE__BUCKET_NAME),
    events,
    eventStreams: new EventStreamsService(new EventAudienceRepository(db), tasksRepository, (principal) =>
      auth.refreshed(principal),
    ),
    scans: new ScanService(env.LIBRARY_SCAN, repositories.libraries, tasksRepository),
    tasks: new TasksService(
      tasksRepository,
      repositories.libraries,
      new DuplicatesRepository(db),
      env.TASK_RUNNER,
      env.LIBRARY_SCAN,
      events,
    ),
    ...catalogRead,
    ...lists,
    opdsCatalog: opdsCatalog(db, libraries, events),
    kosync: new KosyncService(catalogRead.readProgress),
    readingStats: readingStatsService(db),
    metadata,
    tracking: new TrackingService(new SeriesTrackingRepository(db), events, queuePolls, defer),
    releases: new ReleasesService(new ReleaseLedgerRepository(db), events),
    releaseSources: new ReleaseSourcesService(new ReleaseSourcesRepository(db), pollDue, defer),
    fileDeletion: new FileDeletionService({
      files: new DeletableFilesRepository(db),
      writer: catalogWriter,
      library: env.LIBRARY,
      cache: env.CACHE,
      events,
      defer,
    }),
    ...media,
    peerImport: createPeerImportServices(db, {
      users: repositories.users,
      apiKeys: repositories.apiKeys,
      libraries: repositories.libraries,
      labels: sharingLabels,
      metadata,
      sharingTags,
      covers: media.covers,
    }),
    secret,
    /** Runs work after the response (ctx.waitUntil); a failure is logged. */
    defer,
  };
}

/**
 * The OPDS feeds' services: the API's own, whose book lists also read each row's OPDS extras in the same
 * statement (issue 30: a feed is one round trip after the credentials, not two).
 */
function opdsCatalog(db: Database, libraries: LibrariesService, events: ReturnType<typeof createEventPublisher>) {
  const extrasRead = feedExtrasRead();
  const catalogRead = createCatalogReadServices(db, extrasRead);
  const lists = createListServices(db, { ...catalogRead, events }, extrasRead);
  return new OpdsCatalogService({
    libraries,
    ...catalogRead,
    ...lists,
    extras: new BookExtrasRepository(db, extrasRead),
  });
}

export type Services = ReturnType<typeof createServices>;
