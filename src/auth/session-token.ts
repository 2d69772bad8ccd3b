/** Session tokens: HS256 JWTs (jose) with `sub`, `sid`, `role`, `iat`, `exp` (DECISIONS.md §Auth). */
import { jwtVerify, SignJWT } from 'jose';
import { utf8 } from '../lib/encoding';
import type { Role } from './permissions';

export interface SessionClaims {
  userId: string;
  sessionId: string;
  role: Role;
}

const ISSUER = 'longbox';

export async function signSessionToken(
  claims: SessionClaims,
  secret: string,
  lifetimeSeconds: number,
): Promise<string> {
  return new SignJWT({ sid: claims.sessionId, role: claims.role })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + lifetimeSeconds)
    .sign(utf8(secret));
}

/** Returns the claims, or null for any token that is garbled, forged or expired. */
export async function verifySessionToken(token: string, secret: string): Promise<SessionClaims | null> {
  try {
    const { payload } = await jwtVerify(token, utf8(secret), { issuer: ISSUER, algorithms: ['HS256'] });
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.role !== 'string') {
      return null;
    }
    return { userId: payload.sub, sessionId: payload.sid, role: payload.role as Role };
  } catch {
    return null;
  }
}

/** A JWT has three dot-separated base64url parts; API keys start with `lbx_`. */
export const looksLikeJwt = (token: string): boolean => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(token);
