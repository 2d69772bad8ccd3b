/**
 * Cloudflare Access assertions (docs/DECISIONS.md §Cloudflare Access): Access puts a signed JWT in the
 * `Cf-Access-Jwt-Assertion` header of every request it let through. It is checked as Cloudflare says it
 * must be — RS256, a key of the team's published set matched by `kid` (rotated every six weeks, so never
 * pinned), `iss` the team domain, `aud` this application's AUD tag, and not expired — and never trusted
 * unverified: anyone can send the header to a `*.workers.dev` address that Access does not guard.
 */
import { jwtVerify } from 'jose';
import type { CloudflareAccessConfig } from './single-sign-on-config';
import { remoteKeySet, verificationFailure } from './token-verification';

export const ACCESS_ASSERTION_HEADER = 'Cf-Access-Jwt-Assertion';
/** The provider name Access identities are linked under (OIDC provider names cannot contain a dash). */
export const CLOUDFLARE_ACCESS_PROVIDER = 'cloudflare-access';

export type AccessAssertion =
  /** A person who signed in at Access: `sub` is their stable id, `email` what Access vouched for. */
  | { kind: 'user'; subject: string; email: string | null }
  /** A service token (machine-to-machine): no person, so no Longbox account (empty `sub`). */
  | { kind: 'service'; clientId: string | null };

export async function verifyAccessAssertion(
  token: string,
  config: CloudflareAccessConfig,
  keySetCooldownSeconds: number,
): Promise<AccessAssertion> {
  let payload: Awaited<ReturnType<typeof jwtVerify>>['payload'];
  try {
    ({ payload } = await jwtVerify(token, remoteKeySet(config.certsUrl, keySetCooldownSeconds), {
      algorithms: ['RS256'],
      issuer: config.issuer,
      audience: config.audience,
      requiredClaims: ['exp', 'iat'],
      clockTolerance: 30,
    }));
  } catch (error) {
    throw verificationFailure(error, 'Cloudflare Access token');
  }
  if (!payload.sub) {
    return { kind: 'service', clientId: typeof payload.common_name === 'string' ? payload.common_name : null };
  }
  const email = typeof payload.email === 'string' && payload.email.includes('@') ? payload.email : null;
  return { kind: 'user', subject: payload.sub, email };
}
