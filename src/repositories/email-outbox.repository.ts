/** The outbox: mail that would have been sent, kept when no mail sender is configured (DECISIONS.md §Auth). */
import type { Database } from '../db/client';
import { emailOutbox } from '../db/schema';

export type OutboxMailRecord = typeof emailOutbox.$inferSelect;

export class EmailOutboxRepository {
  constructor(private readonly db: Database) {}

  async add(mail: OutboxMailRecord): Promise<void> {
    await this.db.insert(emailOutbox).values(mail);
  }
}
