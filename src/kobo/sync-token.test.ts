import { describe, expect, it } from 'vitest';
import { decodeSyncToken, encodeSyncToken } from './sync-token';

const SECRET = 'a-server-secret-of-enough-length-for-hmac-0123456789';
const b64 = (value: unknown) => btoa(JSON.stringify(value));

describe('the Kobo sync token (DECISIONS.md §Kobo e-readers, sync)', () => {
  it('carries the generation the device received, for its own key only', async () => {
    const token = await encodeSyncToken(SECRET, 'key-1', { generation: 1_790_000_000_123, storeToken: 'abc.def' });
    expect(token.startsWith('LBX1.')).toBe(true);
    expect(await decodeSyncToken(SECRET, 'key-1', token)).toEqual({
      generation: 1_790_000_000_123,
      storeToken: 'abc.def',
    });
    // Another key's token, a token signed by another server, a token edited by hand: a full sync.
    expect(await decodeSyncToken(SECRET, 'key-2', token)).toEqual({ generation: 0, storeToken: null });
    expect(await decodeSyncToken(`${SECRET}-other`, 'key-1', token)).toEqual({ generation: 0, storeToken: null });
    const [prefix, payload, signature] = token.split('.');
    const edited = `${prefix}.${btoa(JSON.stringify({ k: 'key-1', g: 9e15 })).replace(/=+$/, '')}.${signature}`;
    expect(payload).not.toBe(edited.split('.')[1]);
    expect(await decodeSyncToken(SECRET, 'key-1', edited)).toEqual({ generation: 0, storeToken: null });
  });

  it('reads nothing but the store’s own token from the store’s, calibre-web’s and Komga’s tokens', async () => {
    const store = 'eyJ0eXAiOjF9.eyJJbnRlcm5hbFN5bmNUb2tlbiI6IngifQ';
    expect(await decodeSyncToken(SECRET, 'k', store)).toEqual({ generation: 0, storeToken: store });
    const calibre = b64({ data: { raw_kobo_store_token: store, books_last_modified: 0 }, version: '1-1-0' });
    expect(await decodeSyncToken(SECRET, 'k', calibre)).toEqual({ generation: 0, storeToken: store });
    const komga = `KOMGA.${b64({ ongoingSyncPointId: 'x', rawKoboSyncToken: store })}`;
    expect(await decodeSyncToken(SECRET, 'k', komga)).toEqual({ generation: 0, storeToken: store });
    for (const garbage of ['', 'garbage', 'LBX1.', 'LBX1.e30.', '%%%', 'x'.repeat(10_000)]) {
      expect(await decodeSyncToken(SECRET, 'k', garbage)).toMatchObject({ generation: 0 });
    }
  });
});
