/**
 * API key wire format `lbx_<prefix>_<secret>` (API.md §5 rule 1, DECISIONS.md §Names): an 8-character
 * [a-z0-9] lookup prefix stored plain, and a 256-bit base62 secret stored only as an HMAC.
 */
import { hmacSha256, randomAlphanumeric, toHex } from '../lib/encoding';

export const API_KEY_FIXED_PREFIX = 'lbx';
const PREFIX_LENGTH = 8;
const SECRET_LENGTH = 43; // 43 base62 characters ≈ 256 bits
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const KEY_PATTERN = /^lbx_([a-z0-9]{8})_([A-Za-z0-9]{32,128})$/;

export interface ParsedApiKey {
  prefix: string;
  secret: string;
}

export function generateApiKey(): { key: string; prefix: string; secret: string } {
  const prefix = randomAlphanumeric(PREFIX_LENGTH);
  const secret = randomAlphanumeric(SECRET_LENGTH, BASE62);
  return { key: `${API_KEY_FIXED_PREFIX}_${prefix}_${secret}`, prefix, secret };
}

/** null when the structure is wrong: the caller answers "Invalid API key format". */
export function parseApiKey(key: string): ParsedApiKey | null {
  const match = KEY_PATTERN.exec(key);
  return match ? { prefix: match[1] as string, secret: match[2] as string } : null;
}

export const looksLikeApiKey = (token: string): boolean => token.startsWith(`${API_KEY_FIXED_PREFIX}_`);

export const displayPrefix = (prefix: string): string => `${API_KEY_FIXED_PREFIX}_${prefix}`;

export async function hashApiKeySecret(secret: string, serverSecret: string): Promise<string> {
  return toHex(await hmacSha256(serverSecret, `api-key:${secret}`));
}

/**
 * A Komga API key (gotson/komga `ApiKeyGenerator`: a random UUID v4 without its dashes). One imported from Komga
 * keeps working where Komga's format is the rule — `/komga` and KOReader sync — and nowhere else
 * (docs/DECISIONS.md §Imported credentials): on `/api/v1` it has API.md's "Invalid API key format".
 */
const KOMGA_KEY_PATTERN = /^[0-9a-f]{32}$/;

export const looksLikeKomgaApiKey = (key: string): boolean => KOMGA_KEY_PATTERN.test(key);

/** What Komga stores of a key and finds it by: the SHA-512 of the key as sent, lowercase hex (`Sha512DigestUtils.shaHex`). */
export async function komgaApiKeyHash(key: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-512', new TextEncoder().encode(key))));
}

/** A stored Komga key hash: what an import must be given. */
export const isKomgaApiKeyHash = (hash: string): boolean => /^[0-9a-f]{128}$/.test(hash);

/** How a key is shown (`key_prefix`): API.md's form, or, for a Komga key, `komga_` and the start of its hash. */
export const keyDisplayPrefix = (key: { format: 'longbox' | 'komga'; prefix: string }): string =>
  key.format === 'komga' ? `komga_${key.prefix.slice(0, 8)}` : displayPrefix(key.prefix);
