/**
 * Password hashing: argon2id at OWASP's minimum (m = 19 MiB, t = 2, p = 1) as a PHC string, so the
 * parameters can be raised later and old hashes still verify (DECISIONS.md §Auth). ~200 ms in workerd;
 * see docs/BENCHMARKS.md.
 */
import { argon2idAsync } from '@noble/hashes/argon2.js';
import { fromBase64, timingSafeEqual, toBase64, utf8 } from '../lib/encoding';
import { isImportedHash, verifyImportedPassword } from './imported-password';

export const ARGON2_PARAMS = { m: 19_456, t: 2, p: 1, dkLen: 32 } as const;
const SALT_BYTES = 16;

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const { m, t, p, dkLen } = ARGON2_PARAMS;
  const hash = await argon2idAsync(utf8(password), salt, { m, t, p, dkLen });
  return `$argon2id$v=19$m=${m},t=${t},p=${p}$${toBase64(salt, { pad: false })}$${toBase64(hash, { pad: false })}`;
}

const PHC = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

/** Checks a password against a stored hash: Longbox's own, or one a migration brought (imported-password.ts). */
export async function verifyPassword(password: string, phc: string): Promise<boolean> {
  const match = PHC.exec(phc);
  if (!match) return isImportedHash(phc) ? verifyImportedPassword(password, phc) : false;
  const [, m, t, p, saltText, hashText] = match as unknown as [string, string, string, string, string, string];
  const expected = fromBase64(hashText);
  const actual = await argon2idAsync(utf8(password), fromBase64(saltText), {
    m: Number(m),
    t: Number(t),
    p: Number(p),
    dkLen: expected.length,
  });
  return timingSafeEqual(actual, expected);
}

/** A hash to replace by Longbox's own once the password is known (a peer's, kept since a migration). */
export const needsRehash = (stored: string): boolean => isImportedHash(stored);

/**
 * What an account without a password stores instead of a hash: one that single sign-on created signs in
 * through its provider until an admin sets a password. No password verifies against it.
 */
export const NO_PASSWORD = '!';

/** Whether the account has a password of its own (not `NO_PASSWORD`). */
export const hasPassword = (user: { passwordHash: string }) => user.passwordHash !== NO_PASSWORD;

/** A hash of a random password: verifying against it costs the same as a real check (no user-enumeration timing). */
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword(crypto.randomUUID());
  return decoyHash;
}
