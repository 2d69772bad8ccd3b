/** Serving a book's bytes (API.md §4 Pages and thumbnails, DECISIONS.md §Storage download) for the service graph. */
import type { Defer } from '../lib/deferred-work';
import { readConfig } from '../config/config';
import type { Database } from '../db/client';
import type { EventPublisher } from '../events/events';
import { createRendererClient, type RendererClient } from '../media/image-renderer';
import { edgePageCache } from '../pages/edge-page-cache';
import { pageTableStore } from '../pages/page-table-cache';
import { BookMediaRepository } from '../repositories/book-media.repository';
import { MetadataRepository } from '../repositories/metadata.repository';
import { r2BookFileStore } from '../storage/book-file-store';
import { UploadedCoversRepository } from '../repositories/uploaded-covers.repository';
import { CoversService } from './covers.service';
import { BookFileService } from './book-file.service';
import { PageService } from './page.service';
import type { SettingsService } from './settings.service';
import { ThumbnailService } from './thumbnail.service';

export interface MediaServiceDeps {
  db: Database;
  env: Env;
  settings: SettingsService;
  events: EventPublisher;
  defer: Defer;
}

export function createMediaServices({ db, env, settings, events, defer }: MediaServiceDeps) {
  const repo = new BookMediaRepository(db);
  // Deployments without the renderer worker still serve originals; image work answers 503.
  const renderer: RendererClient | null = env.RENDERER ? createRendererClient(env.RENDERER) : null;
  const covers = new UploadedCoversRepository(db);
  const edgeCache = readConfig(env).LONGBOX_PAGES__EDGE_CACHE ? edgePageCache() : null;
  return {
    pages: new PageService({ repo, library: env.LIBRARY, cache: env.CACHE, renderer, edgeCache, defer }),
    bookFiles: new BookFileService({
      repo,
      files: r2BookFileStore(env.LIBRARY),
      tableStore: (origin) => (edgeCache ? pageTableStore(origin) : null),
      edgeCache,
      defer,
    }),
    thumbnails: new ThumbnailService({ repo, db, env, cache: env.CACHE, renderer, settings, events, edgeCache, defer }),
    covers: new CoversService({
      db,
      metadata: new MetadataRepository(db),
      covers,
      cache: env.CACHE,
      renderer,
      settings,
      events,
    }),
  };
}
