/** The one-time values of an authorization-code sign-in: state, nonce and the PKCE verifier (RFC 7636). */
import { toBase64, utf8 } from '../../lib/encoding';

/** 32 random bytes as base64url: 256 bits, unguessable, safe in URLs and cookies. */
export function randomToken(): string {
  return toBase64(crypto.getRandomValues(new Uint8Array(32)), { pad: false, url: true });
}

/** The S256 code challenge of a verifier: base64url(SHA-256(verifier)). */
export async function codeChallenge(verifier: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', utf8(verifier)));
  return toBase64(digest, { pad: false, url: true });
}
