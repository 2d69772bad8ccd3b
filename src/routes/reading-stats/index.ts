import { readBoundedBody } from '../../http/bounded-body';
import { clientInfo } from '../../http/client-info';
import { requestViewer } from '../../http/progress-actor';
import { createRouter } from '../../http/router';
import { badRequest } from '../../lib/errors';
import { KOREADER_STATISTICS_MAX_BYTES } from '../../schemas/reading-stats.schema';
import { act, answer } from '../handlers';
import { contracts as routes } from './reading-stats.routes';

// biome-ignore format: a table of endpoints, one service call per line
export const readingStatsRouter = createRouter()
  .openapi(routes.recordSessions, async (c) => c.json(await c.get('services').readingStats.record({ viewer: requestViewer(c), userAgent: clientInfo(c).userAgent }, c.req.valid('json').sessions), 200))
  .openapi(routes.recordKoreader, async (c) => {
    if (c.req.header('Content-Type')?.startsWith('multipart/form-data')) {
      throw badRequest('Send the database itself as the request body (curl --data-binary @statistics.sqlite3), not as a form');
    }
    const bytes = await readBoundedBody(c.req.raw, KOREADER_STATISTICS_MAX_BYTES, 'The statistics database');
    const sender = { viewer: requestViewer(c), userAgent: clientInfo(c).userAgent, apiKey: c.get('principal').apiKey };
    return c.json(await c.get('services').readingStats.recordKoreader(sender, bytes), 200);
  })
  .openapi(routes.exportSessions, async (c) => {
    const { readingStats } = c.get('services');
    if (c.req.valid('query').format === 'json') return c.json(await readingStats.exportSessions(requestViewer(c)), 200);
    const csv = await readingStats.exportCsv(requestViewer(c));
    return c.body(csv, 200, { 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="reading-sessions.csv"' });
  })
  .openapi(...act(routes.deleteSessions, ({ services, viewer }) => services.readingStats.deleteAll(viewer.userId)))
  .openapi(...answer(routes.readingStats, ({ services, viewer, query }) => services.readingStats.forReader(viewer, query)))
  .openapi(...answer(routes.coverage, ({ services, viewer }) => services.readingStats.coverage(viewer)))
  .openapi(...act(routes.renameDevice, ({ services, viewer, param, body }) => services.readingStats.renameDevice(viewer.userId, param.deviceId, body.name)))
  .openapi(...answer(routes.serverStats, ({ services, viewer, query }) => services.readingStats.forServer(viewer, query)));
