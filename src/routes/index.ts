/** Every resource router, mounted under /api/v1 by app.ts. */
import type { Router } from '../http/router';
import { apiKeysRouter } from './api-keys';
import { authRouter } from './auth';
import { booksRouter } from './books';
import { progressRouter } from './progress';
import { seriesRouter } from './series';
import { healthRouter } from './health';
import { metricsRouter } from './metrics';
import { preferencesRouter } from './preferences';
import { settingsRouter } from './settings';
import { setupRouter } from './setup';
import { ssoRouter } from './sso';
import { usersRouter } from './users';
import { sharingTagsRouter } from './sharing-tags';
import { librariesRouter } from './libraries';
import { filesystemRouter } from './filesystem';
import { eventsRouter } from './events';
import { scansRouter } from './scans';
import { tasksRouter } from './tasks';
import { pagesRouter } from './pages';
import { thumbnailsRouter } from './thumbnails';
import { metadataRouter } from './metadata';
import { bookCoversRouter, seriesCoversRouter } from './covers';
import { listsRouter } from './lists';
import { releasesRouter } from './releases';
import { importRouter } from './import';
import { readingStatsRouter } from './reading-stats';

export const apiRouters: Router[] = [
  healthRouter,
  metricsRouter,
  setupRouter,
  authRouter,
  ssoRouter,
  usersRouter,
  sharingTagsRouter,
  apiKeysRouter,
  preferencesRouter,
  settingsRouter,
  librariesRouter,
  filesystemRouter,
  // Before scans and tasks: /tasks/stream and /scans/stream must not be read as ids.
  eventsRouter,
  scansRouter,
  tasksRouter,
  // Before series and books: PATCH /series/bulk/metadata must not be read as an id.
  metadataRouter,
  seriesCoversRouter,
  bookCoversRouter,
  // Before series: /series/{id}/tracking and its siblings are matched here.
  releasesRouter,
  seriesRouter,
  booksRouter,
  progressRouter,
  readingStatsRouter,
  pagesRouter,
  thumbnailsRouter,
  listsRouter,
  importRouter,
];
