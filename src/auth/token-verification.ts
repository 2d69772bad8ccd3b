/**
 * Verifying tokens signed by someone else (an OIDC provider's ID tokens, Cloudflare Access assertions):
 * their published key sets, fetched and cached per isolate by jose, and one plain sentence per way a token
 * can fail, because the person signing in is shown it.
 */
import { createRemoteJWKSet, errors } from 'jose';
import { AppError, unauthorized } from '../lib/errors';

type KeySet = ReturnType<typeof createRemoteJWKSet>;

const keySets = new Map<string, KeySet>();

/**
 * The key set at `url`, shared by every request of this isolate: fetched on first use, again after ten
 * minutes, and at once when a token names a `kid` it lacks (a key rotation) — but not more often than
 * every `cooldownSeconds`, so tokens with made-up key ids cannot make Longbox hammer the provider.
 */
export function remoteKeySet(url: string, cooldownSeconds: number): KeySet {
  const cacheKey = `${cooldownSeconds} ${url}`;
  let keySet = keySets.get(cacheKey);
  if (!keySet) {
    keySet = createRemoteJWKSet(new URL(url), {
      cooldownDuration: cooldownSeconds * 1000,
      cacheMaxAge: 10 * 60_000,
      timeoutDuration: 10_000,
    });
    keySets.set(cacheKey, keySet);
  }
  return keySet;
}

/**
 * The error a failed verification becomes: 401 naming what was wrong with the token, or 503 when the
 * keys could not be fetched (the token may be fine; the provider is unreachable).
 */
export function verificationFailure(error: unknown, token: string): AppError {
  if (error instanceof errors.JWTExpired) return unauthorized(`The ${token} has expired`);
  if (error instanceof errors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case 'aud':
        return unauthorized(`The ${token} was issued for another application (audience)`);
      case 'iss':
        return unauthorized(`The ${token} was issued by another issuer than the one configured`);
      case 'nbf':
      case 'iat':
        return unauthorized(`The ${token} is not valid yet`);
      default:
        return unauthorized(`The ${token} lacks a valid "${error.claim}" claim`);
    }
  }
  if (error instanceof errors.JWKSNoMatchingKey) {
    return unauthorized(`The ${token} is signed with a key its issuer does not publish`);
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) return unauthorized(`The ${token} signature is invalid`);
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported)
    return unauthorized(`The ${token} uses a signing algorithm not accepted`);
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) {
    return unauthorized(`The ${token} is malformed`);
  }
  return new AppError('ServiceUnavailable', `The signing keys for the ${token} could not be fetched; try again later`);
}
