/**
 * The signed-in user and reading progress as Komga's clients write it (../shared/notes/komga-clients.md
 * §4.5 rows 2, 11, 12): users/me with Komelia's remember-me cookie, book progress PATCH/DELETE, series
 * read/unread, and Mihon's tracker. Progress lands in Longbox's own read_progress through
 * ReadProgressService, so /api/v1, OPDS and KOReader see it at once.
 */
import { progressActor } from '../http/progress-actor';
import { clearKomgaCookies, setRememberMe } from './komga-auth';
import { jsonBody, type KomgaApp, komgaOf, need, READ_PROGRESS, userIdOf, WRITE_PROGRESS } from './komga-http';
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
      return c.json(toKomgaUser(principal.user, principal.permissions));
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
    await c.get('services').readProgress.clear(userIdOf(c), c.req.param('id'));
    return c.body(null, 204);
  });
  app.post('/api/v1/series/:id/read-progress', need(WRITE_PROGRESS), async (c) => {
    await c.get('services').readProgress.markSeriesRead(progressActor(c), c.req.param('id'));
    return c.body(null, 204);
  });
  app.delete('/api/v1/series/:id/read-progress', need(WRITE_PROGRESS), async (c) => {
    await c.get('services').readProgress.markSeriesUnread(userIdOf(c), c.req.param('id'));
    return c.body(null, 204);
  });

  app.get('/api/v1/series/:id/read-progress/tachiyomi', need(READ_PROGRESS), async (c) =>
    c.json(await komgaOf(c).tachiyomiProgressV1(c.req.param('id'), userIdOf(c))),
  );
  app.put('/api/v1/series/:id/read-progress/tachiyomi', need(WRITE_PROGRESS), async (c) => {
    const body = await jsonBody(c, TachiyomiReadProgressUpdateV1Schema);
    await komgaOf(c).markReadUpToIndex(progressActor(c), c.req.param('id'), body.lastBookRead);
    return c.body(null, 204);
  });
  app.get('/api/v2/series/:id/read-progress/tachiyomi', need(READ_PROGRESS), async (c) =>
    c.json(await komgaOf(c).tachiyomiProgress(c.req.param('id'), userIdOf(c))),
  );
  app.put('/api/v2/series/:id/read-progress/tachiyomi', need(WRITE_PROGRESS), async (c) => {
    const body = await jsonBody(c, TachiyomiReadProgressUpdateSchema);
    await komgaOf(c).markReadUpTo(progressActor(c), c.req.param('id'), body.lastBookNumberSortRead);
    return c.body(null, 204);
  });
}
