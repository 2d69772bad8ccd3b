/**
 * The three SSE streams of API.md §6. Each request subscribes to the EventHub Durable Object, which
 * replays buffered events after `Last-Event-ID` and then streams live ones with keep-alive comments.
 * Mounted before the tasks router so `/tasks/stream` is not read as a task id.
 *
 * The subscription does not depend on who asks, so it is opened while the guard checks the caller's
 * credentials (one round trip for both: docs/ARCHITECTURE.md, "The credential check beside the request");
 * its frames reach the caller only through the handler behind the guard, filtered for them, and a refused
 * caller's subscription is cancelled unread.
 */
import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { Requirement } from '../../auth/permissions';
import type { EventStream } from '../../events/events';
import { EVENT_HUB_NAME } from '../../events/publisher';
import { errorResponses, SECURITY } from '../../lib/openapi-responses';
import { createRouter } from '../../http/router';
import type { AppEnv } from '../../env';
import { authenticate } from '../../middleware/authenticate';

const EVENT_ID = /^\d{1,15}$/;

const LastEventIdHeader = z.object({
  'last-event-id': z
    .string()
    .regex(EVENT_ID, 'must be the numeric id of an event')
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
    // The handler starts nothing before the check: the subscription is opened beside it.
    middleware: [subscribeBesideTheCheck(stream), authenticate(need, { speculation: 'never' })] as const,
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

/** Subscriptions opened while their request's credentials are checked, until the handler takes them. */
const opened = new WeakMap<Request, Promise<ReadableStream<Uint8Array>>>();

function subscribe(c: Context<AppEnv>, stream: EventStream, lastId: string | undefined) {
  const hub = c.env.EVENT_HUB.get(c.env.EVENT_HUB.idFromName(EVENT_HUB_NAME));
  return hub.subscribe(
    stream,
    lastId === undefined ? null : Number(lastId),
    c.get('config').LONGBOX_EVENTS__KEEP_ALIVE_MS,
  );
}

function subscribeBesideTheCheck(stream: EventStream) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const lastId = c.req.header('last-event-id');
    // A malformed id is the validator's 400; nothing is opened for it.
    if (lastId !== undefined && !EVENT_ID.test(lastId)) return next();
    const subscription = subscribe(c, stream, lastId);
    // Awaited by the handler; a caller refused before it ran never sees its failure.
    subscription.catch(() => undefined);
    opened.set(c.req.raw, subscription);
    await next();
    // Not taken: the caller was refused (or the request failed): nothing of it is read.
    if (opened.delete(c.req.raw)) subscription.then((body) => body.cancel()).catch(() => undefined);
  });
}

export const eventsRouter = createRouter();
for (const { path, stream, need, summary } of STREAMS) {
  eventsRouter.openapi(streamRoute(path, stream, need, summary), async (c) => {
    const early = opened.get(c.req.raw);
    opened.delete(c.req.raw);
    const all = await (early ?? subscribe(c, stream, c.req.valid('header')['last-event-id']));
    // Replayed and live events alike reach the caller only when they are about what the caller sees.
    const body = c.get('services').eventStreams.forCaller(all, c.get('principal'));
    const headers = { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-cache, no-transform' };
    // The typed route declares its body as text; the stream is that text, delivered as it happens.
    return new Response(body, { status: 200, headers }) as never;
  });
}
