/** Small byte/string encoders used by auth (base64 without padding for PHC, base64url, hex). */
export function toBase64(bytes: Uint8Array, { pad = true, url = false } = {}): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  let out = btoa(binary);
  if (url) out = out.replace(/\+/g, '-').replace(/\//g, '_');
  return pad ? out : out.replace(/=+$/, '');
}

export function fromBase64(text: string): Uint8Array {
  const normalized = text.replace(/-/g, '+').replace(/_/g, '/');
  const padded = normalized + '='.repeat((4 - (normalized.length % 4)) % 4);
  const binary = atob(padded);
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

export function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Constant-time comparison of equal-length byte strings (timing must not reveal a matching prefix). */
export function timingSafeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] as number);
  return diff === 0;
}

export async function sha256Hex(data: Uint8Array | string): Promise<string> {
  const bytes = typeof data === 'string' ? utf8(data) : data;
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)));
}

/** Imported HMAC keys by secret: a server has one or two secrets, and every API-key request signs with one. */
const hmacKeys = new Map<string, Promise<CryptoKey>>();

export async function hmacSha256(secret: string, data: string): Promise<Uint8Array> {
  let key = hmacKeys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey('raw', utf8(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    key.catch(() => hmacKeys.delete(secret));
    hmacKeys.set(secret, key);
  }
  return new Uint8Array(await crypto.subtle.sign('HMAC', await key, utf8(data)));
}

/** Random string over [a-z0-9] (API-key lookup prefixes). Rejection sampling keeps it unbiased. */
export function randomAlphanumeric(length: number, alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'): string {
  const out: string[] = [];
  const limit = 256 - (256 % alphabet.length);
  while (out.length < length) {
    for (const b of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (b < limit && out.length < length) out.push(alphabet[b % alphabet.length] as string);
    }
  }
  return out.join('');
}
