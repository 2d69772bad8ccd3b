/**
 * Bench-only worker: one password hash per request, so the cost can be timed from outside workerd
 * (inside, clocks only advance on I/O). `argon2id` runs Longbox's own hashPassword at ARGON2_PARAMS;
 * `scrypt` is the reference row (N = 2^15, r = 8, p = 1); `noop` measures the request overhead.
 */
import { scryptAsync } from '@noble/hashes/scrypt.js';
import { ARGON2_PARAMS, hashPassword, verifyPassword } from '../../src/auth/password';

export const SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1, dkLen: 32 } as const;

export default {
  async fetch(request: Request): Promise<Response> {
    const { pathname } = new URL(request.url);
    const password = crypto.randomUUID();
    switch (pathname) {
      case '/noop':
        return Response.json({ ok: true });
      case '/params':
        return Response.json({ argon2id: ARGON2_PARAMS, scrypt: SCRYPT_PARAMS });
      case '/check': {
        // Run once before timing: a hash that does not verify would make the numbers meaningless.
        const phc = await hashPassword(password);
        // Only the PHC parameter part is reported; the salt and hash are of no interest.
        const parameters = phc.split('$').slice(0, 4).join('$');
        return Response.json({ phc: parameters, verifies: await verifyPassword(password, phc) });
      }
      case '/argon2id':
        return Response.json({ length: (await hashPassword(password)).length });
      case '/scrypt': {
        const salt = crypto.getRandomValues(new Uint8Array(16));
        const key = await scryptAsync(new TextEncoder().encode(password), salt, SCRYPT_PARAMS);
        return Response.json({ bytes: key.length });
      }
      default:
        return new Response('not found', { status: 404 });
    }
  },
};
