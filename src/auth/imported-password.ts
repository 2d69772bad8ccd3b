/**
 * Password hashes brought from another server by a migration (docs/DECISIONS.md §Imported credentials): kept as
 * the peer stored them, checked at the user's first sign-in, then replaced by Longbox's own argon2id hash
 * (password.ts), so nobody has to reset a password when a household moves.
 *
 * - **Komga**: Spring Security's `BCryptPasswordEncoder` (gotson/komga `PasswordEncoderConfiguration.kt`), the
 *   modular crypt string `$2a$10$<salt><hash>`, stored as is. Checked with bcryptjs (README, design notes).
 * - **Kavita**: ASP.NET Core Identity's `PasswordHasher` (Kavita's `AppUser` is an `IdentityUser<int>`), the
 *   base64 of a self-describing record: format byte 0x01 (v3), then the PRF (0 HMAC-SHA1, 1 HMAC-SHA256, 2
 *   HMAC-SHA512), the iteration count and the salt length as big-endian 32-bit integers, the salt and the
 *   derived key; or format byte 0x00 (v2: HMAC-SHA1, 1000 iterations, 16-byte salt, 32-byte key). Stored as
 *   `$aspnet-identity$<base64>` and checked with PBKDF2.
 */
import bcrypt from 'bcryptjs';
import { pbkdf2Async } from '@noble/hashes/pbkdf2.js';
import { sha1 } from '@noble/hashes/legacy.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { fromBase64, timingSafeEqual, toBase64, utf8 } from '../lib/encoding';

export const IMPORTED_PASSWORD_FORMATS = ['bcrypt', 'aspnet-identity'] as const;
export type ImportedPasswordFormat = (typeof IMPORTED_PASSWORD_FORMATS)[number];

const BCRYPT = /^\$2[aby]\$\d{2}\$[./A-Za-z0-9]{53}$/;
const ASPNET_PREFIX = '$aspnet-identity$';

/** Workers' WebCrypto refuses PBKDF2 above this many iterations; a hash asking more is derived in JavaScript. */
const WEBCRYPTO_MAX_ITERATIONS = 100_000;

interface Pbkdf2Record {
  hash: 'SHA-1' | 'SHA-256' | 'SHA-512';
  iterations: number;
  salt: Uint8Array;
  key: Uint8Array;
}

const PRFS = ['SHA-1', 'SHA-256', 'SHA-512'] as const;

/** The PBKDF2 parameters an ASP.NET Identity hash carries; null when it is not one (or is damaged). */
function aspnetRecord(bytes: Uint8Array): Pbkdf2Record | null {
  if (bytes[0] === 0x00 && bytes.length === 49) {
    return { hash: 'SHA-1', iterations: 1000, salt: bytes.subarray(1, 17), key: bytes.subarray(17) };
  }
  if (bytes[0] !== 0x01 || bytes.length < 13) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const hash = PRFS[view.getUint32(1)];
  const iterations = view.getUint32(5);
  const saltLength = view.getUint32(9);
  // .NET requires a salt of at least 128 bits and a key of at least as much.
  if (!hash || iterations < 1 || saltLength < 16 || bytes.length < 13 + saltLength + 16) return null;
  return { hash, iterations, salt: bytes.subarray(13, 13 + saltLength), key: bytes.subarray(13 + saltLength) };
}

function decodeBase64(text: string): Uint8Array | null {
  try {
    return fromBase64(text);
  } catch {
    return null;
  }
}

/**
 * The string stored in `users.password_hash` for a peer's hash; null when the hash is not of the format named
 * (the import then reports the user instead of storing a password nobody could ever sign in with).
 */
export function storedImportedHash(format: ImportedPasswordFormat, hash: string): string | null {
  if (format === 'bcrypt') return BCRYPT.test(hash) ? hash : null;
  const bytes = decodeBase64(hash.trim());
  return bytes && aspnetRecord(bytes) ? `${ASPNET_PREFIX}${toBase64(bytes)}` : null;
}

/** Whether a stored hash is a peer's (checked here, and replaced after the first good check). */
export function isImportedHash(stored: string): boolean {
  return BCRYPT.test(stored) || stored.startsWith(ASPNET_PREFIX);
}

/** Checks a password against a peer's hash; false for anything that is not one. */
export async function verifyImportedPassword(password: string, stored: string): Promise<boolean> {
  if (BCRYPT.test(stored)) {
    // bcryptjs knows $2a$ and $2b$; PHP's $2y$ is the same algorithm under another name.
    return bcrypt.compare(password, stored.replace(/^\$2y\$/, '$2b$'));
  }
  if (!stored.startsWith(ASPNET_PREFIX)) return false;
  const bytes = decodeBase64(stored.slice(ASPNET_PREFIX.length));
  const record = bytes && aspnetRecord(bytes);
  if (!record) return false;
  return timingSafeEqual(await pbkdf2(password, record), record.key);
}

async function pbkdf2(password: string, { hash, iterations, salt, key }: Pbkdf2Record): Promise<Uint8Array> {
  if (iterations <= WEBCRYPTO_MAX_ITERATIONS) {
    const material = await crypto.subtle.importKey('raw', utf8(password), 'PBKDF2', false, ['deriveBits']);
    const bits = await crypto.subtle.deriveBits(
      { name: 'PBKDF2', hash, salt: salt.slice(), iterations },
      material,
      key.length * 8,
    );
    return new Uint8Array(bits);
  }
  const digest = hash === 'SHA-1' ? sha1 : hash === 'SHA-256' ? sha256 : sha512;
  return pbkdf2Async(digest, utf8(password), salt, { c: iterations, dkLen: key.length });
}
