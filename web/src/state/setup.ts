/**
 * The server's first-run state (GET /setup/status), read when a signed-out visitor or a first-run screen
 * needs it and updated by the wizard, and where it sends a visitor.
 */
import { signal } from '@preact/signals';
import { get } from '../api/client';
import type { SetupStatus } from '../api/types';

export const setupStatus = signal<SetupStatus | null>(null);

/** Paths a visitor without a session may open. */
export const PUBLIC_PATHS = ['/login', '/setup', '/register'];

let loading: Promise<void> | null = null;

/**
 * Asks the server once. A signed-in user's screens do not wait for it: a session means setup is done,
 * and an expired one ends on the login screen, which asks then.
 */
export function loadSetupStatus(): Promise<void> {
  loading ??= get<SetupStatus>('/setup/status')
    .then((status) => {
      setupStatus.value = status;
    })
    .catch(() => {
      setupStatus.value = { setupRequired: false, hasUsers: true, registrationEnabled: false };
    });
  return loading;
}

/**
 * Where the first-run state sends a visitor, decided before anything is drawn (not in an effect after a
 * render): a server with no administrator opens the wizard whatever the address, and a visitor without a
 * session has nothing to do at /setup once it is done (they log in instead). A signed-in user at /setup
 * is the wizard's to place: its first-library step stays while an administrator has no library (the
 * server's state, so a reload keeps it), anyone else goes home. A screen drawn and then swapped for the
 * wizard would take what a fast typist put in its first field with it.
 */
export function firstRunRedirect(status: SetupStatus, path: string, signedIn: boolean): string | null {
  if (status.setupRequired) return path === '/setup' ? null : '/setup';
  if (path !== '/setup') return null;
  return signedIn ? null : '/login';
}

/** The wizard's step for a signed-in user once an administrator exists: `home` when there is nothing left. */
export function setupStepAfterAdmin(isAdmin: boolean, libraryCount: number): 'library' | 'home' {
  return isAdmin && libraryCount === 0 ? 'library' : 'home';
}
