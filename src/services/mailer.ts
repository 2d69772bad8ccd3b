/**
 * Outgoing mail behind one interface. Without a configured sender, mail goes to the outbox table,
 * which an admin can read (DECISIONS.md §Auth).
 */
import { newId, nowIso } from '../lib/ids';
import type { EmailOutboxRepository } from '../repositories/email-outbox.repository';

export interface Mail {
  to: string;
  subject: string;
  body: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

export class OutboxMailer implements Mailer {
  constructor(private readonly outbox: EmailOutboxRepository) {}

  async send(mail: Mail): Promise<void> {
    await this.outbox.add({
      id: newId(),
      recipient: mail.to,
      subject: mail.subject,
      body: mail.body,
      createdAt: nowIso(),
    });
  }
}
