/** First-run setup (DECISIONS.md §Auth): the first account is an admin; afterwards setup answers 409. */
import { conflict } from '../lib/errors';
import type { UsersRepository } from '../repositories/users.repository';
import type { AccountsService } from './accounts.service';
import type { AuthenticationService, ClientInfo } from './authentication.service';
import type { SettingsService } from './settings.service';

export class SetupService {
  constructor(
    private readonly users: UsersRepository,
    private readonly settings: SettingsService,
    private readonly accounts: AccountsService,
    private readonly authentication: AuthenticationService,
  ) {}

  async status() {
    const hasUsers = (await this.users.count()) > 0;
    return {
      setupRequired: !hasUsers,
      hasUsers,
      registrationEnabled: await this.settings.value('auth.registration_enabled'),
    };
  }

  async initialize(input: { username: string; email: string; password: string }, client: ClientInfo) {
    if ((await this.users.count()) > 0) throw conflict('Setup has already been completed');
    const admin = await this.accounts.createUser({ ...input, role: 'admin', emailVerified: true });
    // Two racing initializations can both pass the count check; the loser is undone.
    const all = await this.users.list(0, 2);
    if (all.length > 1 && all[0]?.id !== admin.id) {
      await this.users.delete(admin.id);
      throw conflict('Setup has already been completed');
    }
    return this.authentication.createSession(admin, client);
  }
}
