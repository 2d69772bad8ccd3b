/** E-mail verification tokens: random, stored only as SHA-256, valid 48 h, single use. */
import { randomAlphanumeric, sha256Hex } from '../lib/encoding';
import { badRequest } from '../lib/errors';
import { nowIso } from '../lib/ids';
import type { UserRecord, UsersRepository } from '../repositories/users.repository';
import type { Mailer } from './mailer';

const TOKEN_LIFETIME_MS = 48 * 3600 * 1000;
/** Resending is public and unauthenticated: at most one mail a minute per account, so it cannot flood an inbox. */
export const RESEND_INTERVAL_MS = 60_000;

export class EmailVerification {
  constructor(
    private readonly users: UsersRepository,
    private readonly mailer: Mailer,
  ) {}

  async send(user: UserRecord): Promise<void> {
    const token = randomAlphanumeric(40);
    const now = Date.now();
    await this.users.replaceVerificationToken({
      tokenHash: await sha256Hex(token),
      userId: user.id,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + TOKEN_LIFETIME_MS).toISOString(),
    });
    await this.mailer.send({
      to: user.email,
      subject: 'Verify your Longbox account',
      body: `Hello ${user.username},\n\nYour verification token is: ${token}\n\nSend it to POST /api/v1/auth/verify-email as {"token": "..."} (your app does this for you). It is valid for 48 hours.`,
    });
  }

  /** Sends a new token unless the last one went out less than RESEND_INTERVAL_MS ago. */
  async resend(user: UserRecord): Promise<void> {
    const last = await this.users.latestVerificationTokenAt(user.id);
    if (last && Date.now() - Date.parse(last) < RESEND_INTERVAL_MS) return;
    await this.send(user);
  }

  async verify(token: string): Promise<void> {
    const row = await this.users.liveVerificationToken(await sha256Hex(token), nowIso());
    if (!row)
      throw badRequest('Verification token is invalid or has expired', [
        { path: 'token', message: 'invalid or expired' },
      ]);
    await this.users.markEmailVerified(row.userId, nowIso());
  }
}
