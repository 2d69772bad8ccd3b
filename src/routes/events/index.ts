/**
 * The three SSE streams of API.md §6. Each request subscribes to the EventHub Durable Object, which
 * replays buffered events after `Last-Event-ID` and then streams live ones with keep-alive comments.
 * Mounted before the tasks router so `/tasks/stream` is not read as a task id.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Requirement } from '../../auth/permissions';
import type { EventStream } from '../../events/events';
import { EVENT_HUB_NAME } from '../../events/publisher';
import { errorResponses, SECURITY } from '../../lib/openapi-responses';
import { createRouter } from '../../http/router';
import { authenticate } from '../../middleware/authenticate';

const LastEventIdHeader = z.object({
  'last-event-id': z
    .string()
    .regex(/^\d{1,15}$/, 'must be the numeric id of an event')
    .optional()
    .openapi({ param: { name: 'last-event-id', in: 'header' }, description: 'Resume after this event id' }),
});

function streamRoute(path: string, stream: EventStream, need: Requirement, summary: string) {
  return createRoute({
    method: 'get',
    path,
    tags: ['Events'],
    security: SECURITY,
    summary,
    middleware: [authenticate(need)] as const,
    request: { headers: LastEventIdHeader },
    responses: {
      200: {
        description: `text/event-stream of ${stream} events; \`: keep-alive\` every 15 seconds`,
        content: { 'text/event-stream': { schema: z.string() } },
      },
      ...errorResponses(400, 401, 403),
    },
  });
}

const STREAMS = [
  {
    path: '/events/stream',
    stream: 'events',
    need: ['LibrariesRead', 'SeriesRead', 'BooksRead'],
    summary: 'Entity events (books, series, libraries, covers)',
  },
  { path: '/tasks/stream', stream: 'tasks', need: 'TasksRead', summary: 'Task progress events' },
  { path: '/scans/stream', stream: 'scans', need: 'LibrariesRead', summary: 'Scan progress events' },
] as const satisfies ReadonlyArray<{ path: string; stream: EventStream; need: Requirement; summary: string }>;

export const eventsRouter = createRouter();
for (const { path, stream, need, summary } of STREAMS) {
  eventsRouter.openapi(streamRoute(path, stream, need, summary), async (c) => {
    const lastId = c.req.valid('header')['last-event-id'];
    const hub = c.env.EVENT_HUB.get(c.env.EVENT_HUB.idFromName(EVENT_HUB_NAME));
    const all = await hub.subscribe(
      stream,
      lastId === undefined ? null : Number(lastId),
      c.get('config').LONGBOX_EVENTS__KEEP_ALIVE_MS,
    );
    // Replayed and live events alike reach the caller only when they are about what the caller sees.
    const body = c.get('services').eventStreams.forCaller(all, c.get('principal'));
    const headers = { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform' };
    // The typed route declares its body as text; the stream is that text, delivered as it happens.
    return new Response(body, { status: 200, headers }) as never;
  });
}
