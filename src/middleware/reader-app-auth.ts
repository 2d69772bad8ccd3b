/**
 * The guard of every reader-app URL (OPDS feeds, search, covers, pages, files; the Komga API):
 * DECISIONS.md §Reader apps, §Auth. Same credentials as the API (Basic `user:password`, Basic
 * `api:<key>`, X-API-Key, Bearer), same permissions, but a 401 challenges with Basic alone: Panels,
 * Moon+ and URLSession-based apps only prompt for a password on a `Basic` challenge, Thorium keys on
 * the header starting with `Basic`, and iOS reuses credentials only within one realm.
 */
import type { Requirement } from '../auth/permissions';
import { type GuardOptions, guard, REALM } from './authenticate';

export const READER_APP_CHALLENGE = { 'WWW-Authenticate': `Basic realm="${REALM}"` };

/** `need` omitted: any signed-in caller. */
export function readerAppAuth(need?: Requirement, options?: GuardOptions) {
  return guard(need, () => READER_APP_CHALLENGE, options);
}
