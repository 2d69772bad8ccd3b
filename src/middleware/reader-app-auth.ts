/**
 * The guard of every reader-app URL (OPDS feeds, search, covers, pages, files; the Komga API):
 * DECISIONS.md §Reader apps, §Auth. Same credentials as the API (Basic `user:password`, Basic
 * `api:<key>`, X-API-Key, Bearer), same permissions, but a 401 challenges with Basic alone: Panels,
 * Moon+ and URLSession-based apps only prompt for a password on a `Basic` challenge, Thorium keys on
 * the header starting with `Basic`, and iOS reuses credentials only within one realm.
 */
import type { Requirement } from '../auth/permissions';
import { isFromThisOrigin, isInPageRequest } from '../http/browser-request';
import { type GuardOptions, guard, IN_PAGE_CHALLENGE, REALM } from './authenticate';

export const READER_APP_CHALLENGE = { 'WWW-Authenticate': `Basic realm="${REALM}"` };

/**
 * `need` omitted: any signed-in caller. An image or fetch made by one of Longbox's own pages is the one
 * exception to the Basic challenge: the browser would put its password dialog over the app.
 */
export function readerAppAuth(need?: Requirement, options?: GuardOptions) {
  return guard(
    need,
    (c) => (isInPageRequest(c) && isFromThisOrigin(c) ? IN_PAGE_CHALLENGE : READER_APP_CHALLENGE),
    options,
  );
}
