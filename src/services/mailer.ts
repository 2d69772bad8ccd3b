/**
 * Outgoing mail behind one interface. Without a configured sender, mail goes to the outbox table,
 * which an admin can read (DECISIONS.md §Auth).
 */
import { desc } from 'drizzle-orm';
import type { Database } from '../db/client';
import { emailOutbox } from '../db/schema';
import { newId, nowIso } from '../lib/ids';

export interface Mail {
  to: string;
  subject: string;
  body: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export class OutboxMailer implements Mailer {
  constructor(private readonly db: Database) {}

  async send(mail: Mail): Promise<void> {
    await this.db.insert(emailOutbox).values({
      id: newId(),
      recipient: mail.to,
      subject: mail.subject,
      body: mail.body,
      createdAt: nowIso(),
    });
  }

  async list(limit = 100) {
    return this.db.select().from(emailOutbox).orderBy(desc(emailOutbox.createdAt)).limit(limit);
  }
}
