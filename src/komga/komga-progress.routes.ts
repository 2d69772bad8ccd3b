/**
 * The signed-in user and reading progress as Komga's clients write it (docs/notes/komga-clients.md
 * §4.5 rows 2, 11, 12): users/me with Komelia's remember-me cookie, book progress PATCH/DELETE, series
 * read/unread, and Mihon's tracker. Progress lands in Longbox's own read_progress through
 * ReadProgressService, so /api/v1, OPDS and KOReader see it at once.
 */
import { progressActor, requestViewer } from '../http/progress-actor';
import { clearKomgaCookies, setRememberMe } from './komga-auth';
import type { Viewer } from '../repositories/visibility';
import { jsonBody, type KomgaApp, type KomgaContext, komgaOf, need, READ_PROGRESS, WRITE_PROGRESS } from './komga-http';
import type { KomgaService } from './komga.service';
import type { ProgressActor } from '../services/read-progress.service';
import {
  ReadProgressUpdateSchema,
  TachiyomiReadProgressUpdateSchema,
  TachiyomiReadProgressUpdateV1Schema,
} from './komga.dto';
import { toKomgaUser } from './komga.mappers';

export function registerProgressRoutes(app: KomgaApp) {
  for (const path of ['/api/v2/users/me', '/api/v1/users/me']) {
    app.get(path, async (c) => {
      const principal = c.get('principal');
      if (c.req.query('remember-me')?.toLowerCase() === 'true') await setRememberMe(c);
      const access = await c.get('services').userAccess.of(principal.user.id);
      return c.json(toKomgaUser(principal.user, principal.permissions, access));
    });
  }
  app.post('/api/logout', async (c) => {
    await c.get('services').auth.logout(c.get('principal'));
    clearKomgaCookies(c);
    return c.body(null, 204);
  });

  app.patch('/api/v1/books/:id/read-progress', need(WRITE_PROGRESS), async (c) => {
    const body = await jsonBody(c, ReadProgressUpdateSchema);
    await komgaOf(c).updateProgress(progressActor(c), c.req.param('id'), body);
    return c.body(null, 204);
  });
  app.delete('/api/v1/books/:id/read-progress', need(WRITE_PROGRESS), async (c) => {
    await c.get('services').readProgress.clear(requestViewer(c), c.req.param('id'));
    return c.body(null, 204);
  });
  app.post('/api/v1/series/:id/read-progress', need(WRITE_PROGRESS), async (c) => {
    await c.get('services').readProgress.markSeriesRead(progressActor(c), c.req.param('id'));
    return c.body(null, 204);
  });
  app.delete('/api/v1/series/:id/read-progress', need(WRITE_PROGRESS), async (c) => {
    await c.get('services').readProgress.markSeriesUnread(requestViewer(c), c.req.param('id'));
    return c.body(null, 204);
  });

  // Mihon's tracker: v1 counts books in numberSort order, v2 speaks numberSort values.
  const trackers = [
    {
      path: '/api/v1/series/:id/read-progress/tachiyomi',
      read: (komga: KomgaService, viewer: Viewer, id: string) => komga.tachiyomiProgressV1(viewer, id),
      mark: async (c: KomgaContext, komga: KomgaService, actor: ProgressActor, id: string) =>
        komga.markReadUpToIndex(actor, id, (await jsonBody(c, TachiyomiReadProgressUpdateV1Schema)).lastBookRead),
    },
    {
      path: '/api/v2/series/:id/read-progress/tachiyomi',
      read: (komga: KomgaService, viewer: Viewer, id: string) => komga.tachiyomiProgress(viewer, id),
      mark: async (c: KomgaContext, komga: KomgaService, actor: ProgressActor, id: string) =>
        komga.markReadUpTo(actor, id, (await jsonBody(c, TachiyomiReadProgressUpdateSchema)).lastBookNumberSortRead),
    },
  ];
  for (const { path, read, mark } of trackers) {
    app.get(path, need(READ_PROGRESS), async (c) =>
      c.json(await read(komgaOf(c), requestViewer(c), c.req.param('id') ?? '')),
    );
    app.put(path, need(WRITE_PROGRESS), async (c) => {
      await mark(c, komgaOf(c), progressActor(c), c.req.param('id') ?? '');
      return c.body(null, 204);
    });
  }
}
