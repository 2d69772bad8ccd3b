/**
 * EventHub: numbers every published event with a monotonic id, keeps a bounded buffer in its SQLite
 * storage, and fans events out to the open SSE streams (API.md §6): a reconnecting client resumes
 * with Last-Event-ID from the buffer (DECISIONS.md §Tasks and events). One instance serves the
 * deployment; it sleeps when nobody listens and nothing is published.
 */
import { DurableObject } from 'cloudflare:workers';
import { type EventStream, type PublishedEvent, streamOf } from '../src/events/events';
import { KEEP_ALIVE_MS, SSE_KEEP_ALIVE, SSE_PREAMBLE, sseFrame } from '../src/events/sse';

/** How many recent events a reconnecting client can replay. */
export const EVENT_BUFFER_SIZE = 1000;

export interface BufferedEvent {
  id: number;
  event: PublishedEvent;
}

interface Subscriber {
  stream: EventStream;
  controller: ReadableStreamDefaultController<Uint8Array>;
}

export class EventHub extends DurableObject<Env> {
  private readonly subscribers = new Set<Subscriber>();
  private keepAlive: ReturnType<typeof setInterval> | undefined;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(
      'CREATE TABLE IF NOT EXISTS events (id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL)',
    );
  }

  async publish(events: PublishedEvent[]): Promise<number[]> {
    const ids: number[] = [];
    for (const event of events) {
      const row = this.ctx.storage.sql
        .exec<{ id: number }>('INSERT INTO events (body) VALUES (?) RETURNING id', JSON.stringify(event))
        .one();
      ids.push(row.id);
      this.deliver(row.id, event);
    }
    this.ctx.storage.sql.exec('DELETE FROM events WHERE id <= (SELECT max(id) FROM events) - ?', EVENT_BUFFER_SIZE);
    return ids;
  }

  /** Events after `lastId` (oldest first), at most `limit`. */
  async since(lastId: number, limit = EVENT_BUFFER_SIZE): Promise<BufferedEvent[]> {
    return this.ctx.storage.sql
      .exec<{ id: number; body: string }>('SELECT id, body FROM events WHERE id > ? ORDER BY id LIMIT ?', lastId, limit)
      .toArray()
      .map((row) => ({ id: row.id, event: JSON.parse(row.body) as PublishedEvent }));
  }

  /**
   * An SSE byte stream of one event stream: first the buffered events after `lastEventId` (when the
   * client resumes), then live events, with a keep-alive comment every `keepAliveMs`.
   */
  async subscribe(
    stream: EventStream,
    lastEventId: number | null,
    keepAliveMs = KEEP_ALIVE_MS,
  ): Promise<ReadableStream<Uint8Array>> {
    const replay = lastEventId === null ? [] : await this.since(lastEventId);
    let subscriber: Subscriber | undefined;
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        controller.enqueue(SSE_PREAMBLE);
        for (const { id, event } of replay) if (streamOf(event) === stream) controller.enqueue(sseFrame(id, event));
        subscriber = { stream, controller };
        this.subscribers.add(subscriber);
        this.startKeepAlive(keepAliveMs);
      },
      cancel: () => {
        if (subscriber) this.subscribers.delete(subscriber);
        if (this.subscribers.size === 0) this.stopKeepAlive();
      },
    });
  }

  private deliver(id: number, event: PublishedEvent): void {
    const kind = streamOf(event);
    const frame = sseFrame(id, event);
    for (const subscriber of this.subscribers) if (subscriber.stream === kind) this.send(subscriber, frame);
  }

  private send(subscriber: Subscriber, bytes: Uint8Array): void {
    try {
      subscriber.controller.enqueue(bytes);
    } catch {
      this.subscribers.delete(subscriber); // the client went away
    }
  }

  private startKeepAlive(intervalMs: number): void {
    if (this.keepAlive) return;
    this.keepAlive = setInterval(() => {
      for (const subscriber of this.subscribers) this.send(subscriber, SSE_KEEP_ALIVE);
      if (this.subscribers.size === 0) this.stopKeepAlive();
    }, intervalMs);
  }

  private stopKeepAlive(): void {
    clearInterval(this.keepAlive);
    this.keepAlive = undefined;
  }
}
