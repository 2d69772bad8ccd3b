/**
 * The `x-kobo-synctoken` a Kobo keeps between syncs and sends with each one (DECISIONS.md §Kobo e-readers, sync
 * token). Longbox's token says which device it was given to (the API key's id) and the last sync page the
 * device received (`generation`), signed with the server secret so it cannot be forged or moved to another
 * key: anything that does not verify — garbage, another key's token, another server's — is no token at all,
 * and the device gets a full sync rather than an error it would retry forever.
 *
 * A token from Kobo's own store (`base64.base64`), calibre-web (base64 JSON holding `raw_kobo_store_token`) or
 * Komga (`KOMGA.` base64 JSON holding `rawKoboSyncToken`) is kept as the store's token, so a device moved to
 * Longbox can still sync its store purchases when forwarding to the store is on.
 */
import { fromBase64, hmacSha256, timingSafeEqual, toBase64, utf8 } from '../lib/encoding';

const PREFIX = 'LBX1.';

export interface SyncToken {
  /** The last sync page the device received; 0: nothing (a full sync). */
  generation: number;
  /** The Kobo store's own token, carried for forwarding. */
  storeToken: string | null;
}

interface Payload {
  k: string;
  g: number;
  s?: string;
}

const NO_TOKEN: SyncToken = { generation: 0, storeToken: null };

const signature = async (secret: string, payload: string) =>
  toBase64(await hmacSha256(secret, `kobo-sync-token:${payload}`), { pad: false, url: true });

export async function encodeSyncToken(secret: string, apiKeyId: string, token: SyncToken): Promise<string> {
  const payload: Payload = { k: apiKeyId, g: token.generation, ...(token.storeToken ? { s: token.storeToken } : {}) };
  const encoded = toBase64(utf8(JSON.stringify(payload)), { pad: false, url: true });
  return `${PREFIX}${encoded}.${await signature(secret, encoded)}`;
}

const json = (base64: string): unknown => {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(fromBase64(base64)));
  } catch {
    return null;
  }
};

/** Another server's token: the Kobo store token it carries, if any. */
function storeTokenOf(header: string): string | null {
  if (header.startsWith('KOMGA.')) {
    const parsed = json(header.slice(6)) as { rawKoboSyncToken?: unknown } | null;
    return typeof parsed?.rawKoboSyncToken === 'string' && parsed.rawKoboSyncToken !== ''
      ? parsed.rawKoboSyncToken
      : null;
  }
  if (!header.includes('.')) {
    const parsed = json(header) as { data?: { raw_kobo_store_token?: unknown } } | null;
    const raw = parsed?.data?.raw_kobo_store_token;
    return typeof raw === 'string' && raw !== '' ? raw : null;
  }
  // The store's own: two base64 parts (a header and a payload).
  return /^[A-Za-z0-9+/=_-]+\.[A-Za-z0-9+/=_-]+$/.test(header) ? header : null;
}

/** The token the device sent, if it is this key's and verifies; otherwise a full sync (with any store token kept). */
export async function decodeSyncToken(
  secret: string,
  apiKeyId: string,
  header: string | undefined,
): Promise<SyncToken> {
  const value = header?.trim() ?? '';
  if (value === '' || value.length > 8192) return NO_TOKEN;
  if (!value.startsWith(PREFIX)) return { generation: 0, storeToken: storeTokenOf(value) };
  const [encoded = '', signed = ''] = value.slice(PREFIX.length).split('.');
  if (!timingSafeEqual(utf8(signed), utf8(await signature(secret, encoded)))) return NO_TOKEN;
  const payload = json(encoded) as Partial<Payload> | null;
  if (!payload || payload.k !== apiKeyId) return NO_TOKEN;
  const generation = typeof payload.g === 'number' && Number.isSafeInteger(payload.g) && payload.g >= 0 ? payload.g : 0;
  return { generation, storeToken: typeof payload.s === 'string' ? payload.s : null };
}
