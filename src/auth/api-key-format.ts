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
