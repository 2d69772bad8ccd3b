/**
 * EventHub: numbers every published event with a monotonic id and keeps a bounded buffer in its
 * SQLite storage, so SSE clients can resume with Last-Event-ID (DECISIONS.md §Tasks and events).
 */
import { DurableObject } from 'cloudflare:workers';
import type { PublishedEvent } from '../src/events/events';

/** How many recent events a reconnecting client can replay. */
export const EVENT_BUFFER_SIZE = 1000;

export interface BufferedEvent {
  id: number;
  event: PublishedEvent;
}

export class EventHub extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.blockConcurrencyWhile(async () => {
      this.ctx.storage.sql.exec(
        'CREATE TABLE IF NOT EXISTS events (id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL)',
      );
    });
  }

  async publish(events: PublishedEvent[]): Promise<number[]> {
    const ids: number[] = [];
    for (const event of events) {
      const row = this.ctx.storage.sql
        .exec<{ id: number }>('INSERT INTO events (body) VALUES (?) RETURNING id', JSON.stringify(event))
        .one();
      ids.push(row.id);
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
}
