/** The server's first-run state (GET /setup/status), read once at start and updated by the wizard. */
import { signal } from '@preact/signals';
import type { SetupStatus } from '../api/types';

export const setupStatus = signal<SetupStatus | null>(null);
