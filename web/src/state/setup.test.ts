import { describe, expect, it } from 'vitest';
import { firstRunRedirect, setupStepAfterAdmin } from './setup';

const FRESH = { setupRequired: true, hasUsers: false, registrationEnabled: false };
const DONE = { setupRequired: false, hasUsers: true, registrationEnabled: true };

describe('where the first-run state sends a visitor (decided before drawing any screen)', () => {
  it('opens the wizard on a server with no administrator, whatever the address', () => {
    expect(firstRunRedirect(FRESH, '/register', false)).toBe('/setup');
    expect(firstRunRedirect(FRESH, '/login', false)).toBe('/setup');
    expect(firstRunRedirect(FRESH, '/series/42', false)).toBe('/setup');
    expect(firstRunRedirect(FRESH, '/setup', false)).toBeNull();
    // The administrator just created is signed in and still in the wizard (its library step).
    expect(firstRunRedirect(FRESH, '/setup', true)).toBeNull();
  });

  it('leaves the first-run screens alone once setup is done, and the wizard is closed', () => {
    expect(firstRunRedirect(DONE, '/register', false)).toBeNull();
    expect(firstRunRedirect(DONE, '/login', false)).toBeNull();
    expect(firstRunRedirect(DONE, '/setup', false)).toBe('/login');
    // A signed-in user at /setup: the wizard decides from the server's state (setupStepAfterAdmin).
    expect(firstRunRedirect(DONE, '/setup', true)).toBeNull();
  });

  it('keeps the first-library step for an administrator without a library, whoever reloads (issue 31 point 5)', () => {
    expect(setupStepAfterAdmin(true, 0)).toBe('library');
    expect(setupStepAfterAdmin(true, 1)).toBe('home');
    expect(setupStepAfterAdmin(false, 0)).toBe('home');
  });
});
