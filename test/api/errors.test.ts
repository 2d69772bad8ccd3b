/** API.md §7 and DECISIONS.md §Errors: every failure is `{error, message, details}`, never a stack trace. */
import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { createApiKey, setupAdmin } from '../support/factories';
import { api, expectError } from '../support/http';

const LOGIN = { username: 'admin', password: 'admin-password-1' };

describe('invalid request data → 400 BadRequest (DECISIONS.md §Errors)', () => {
  it('malformed JSON', async () => {
    const res = await api('/auth/login', {
      body: '{"username": "admin", "password": ',
      headers: { 'Content-Type': 'application/json' },
    });
    const error = expectError(res, 400, 'BadRequest');
    expect(error.message).toMatch(/malformed json/i);
    expect(error.details).toBeNull();
  });

  it('a body that is not JSON by its content type, naming application/json', async () => {
    const res = await api('/auth/login', { body: JSON.stringify(LOGIN), headers: { 'Content-Type': 'text/plain' } });
    expect(expectError(res, 400, 'BadRequest').message).toContain('application/json');
  });

  it('a body without any content type, naming application/json', async () => {
    const res = await api('/auth/login', { body: JSON.stringify(LOGIN), headers: {} });
    expect(expectError(res, 400, 'BadRequest').message).toContain('application/json');
  });

  it('no body at all', async () => {
    const res = await api('/auth/login', { method: 'POST' });
    expect(expectError(res, 400, 'BadRequest').message).toContain('application/json');
  });

  it('an empty JSON body', async () => {
    const res = await api('/auth/login', { method: 'POST', body: '', headers: { 'Content-Type': 'application/json' } });
    expectError(res, 400, 'BadRequest');
  });

  it('a JSON body that is not an object', async () => {
    const res = await api('/auth/login', { json: ['admin', 'admin-password-1'] });
    const error = expectError(res, 400, 'BadRequest');
    expect(error.details).toEqual([{ path: '(root)', message: expect.any(String) }]);
  });

  it('wrong field types, with one detail per field', async () => {
    const res = await api('/auth/login', { json: { username: 42, password: ['x'] } });
    const error = expectError(res, 400, 'BadRequest');
    expect(error.details?.map((d) => d.path).sort()).toEqual(['password', 'username']);
    for (const detail of error.details ?? [])
      expect(detail).toEqual({ path: detail.path, message: expect.any(String) });
    expect(error.message).toMatch(/^Invalid request body: /);
  });

  it('unknown fields are named in details', async () => {
    const res = await api('/auth/login', { json: { ...LOGIN, isAdmin: true } });
    const error = expectError(res, 400, 'BadRequest');
    expect(error.details).toEqual([{ path: '(root)', message: 'Unknown field(s): isAdmin' }]);
  });

  it('a path id that is not a UUID', async () => {
    const { auth } = await setupAdmin();
    const error = expectError(await api('/users/not-a-uuid', { auth }), 400, 'BadRequest');
    expect(error.details).toEqual([{ path: 'id', message: expect.any(String) }]);
    expect(error.message).toContain('path parameter');
  });

  it('a bad query parameter', async () => {
    const { auth } = await setupAdmin();
    const error = expectError(await api('/users?page=zero', { auth }), 400, 'BadRequest');
    expect(error.details?.[0]?.path).toBe('page');
  });
});

describe('unknown routes → 404 NotFound (API.md §7)', () => {
  it.each([
    ['GET', '/api/v1/no-such-thing'],
    ['POST', '/api/v1/no/such/thing'],
    ['DELETE', '/api/v1/setup/status'],
    ['GET', '/api/v2/health'],
    // GET / is the web app (DECISIONS.md §Web app); a write there is still an unknown route.
    ['POST', 'http://longbox.test/'],
  ])('%s %s', async (method, path) => {
    const error = expectError(await api(path, { method }), 404, 'NotFound');
    expect(error.details).toBeNull();
    expect(error.message).toBe(`Route ${method} ${new URL(path, 'http://longbox.test').pathname} not found`);
  });
});

describe('body too large → 413 PayloadTooLarge (DECISIONS.md §Errors)', () => {
  it('rejects a JSON body over 1 MiB before reading it as JSON', async () => {
    const res = await api('/auth/login', { json: { ...LOGIN, padding: 'x'.repeat(1024 * 1024) } });
    const error = expectError(res, 413, 'PayloadTooLarge');
    expect(error.details).toBeNull();
  });

  it('also when the client streams the body without a Content-Length', async () => {
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode('{"username":"'));
        if (sent > 1.5 * 1024 * 1024) {
          controller.enqueue(new TextEncoder().encode('","password":"x"}'));
          controller.close();
          return;
        }
        controller.enqueue(chunk);
        sent += chunk.length;
      },
    });
    const response = await SELF.fetch('http://longbox.test/api/v1/auth/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: 'PayloadTooLarge', details: null });
  });

  it('also for a search sent by a caller whose check runs beside the request', async () => {
    const admin = await setupAdmin();
    const { key } = await createApiKey(admin.auth);
    const auth = { apiKey: key };
    // The first request checks the key; the isolate remembers it, so the next one starts before its check.
    expect((await api('/series/list', { auth, json: {} })).status).toBe(200);
    const res = await api('/series/list', { auth, json: { search: 'x'.repeat(1024 * 1024) } });
    expect(expectError(res, 413, 'PayloadTooLarge').details).toBeNull();
  });
});

describe('500 InternalServerError never leaks internals (DECISIONS.md §Errors)', () => {
  it('answers a generic envelope carrying only the request id', async () => {
    const app = createApp({
      databaseFactory: () => {
        throw new Error('secret internal detail');
      },
    });
    const ctx = createExecutionContext();
    const request = new Request('http://longbox.test/api/v1/setup/status', { headers: { 'X-Request-Id': 'req-500' } });
    const response = await app.fetch(request, env, ctx);
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(500);
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(response.headers.get('X-Request-Id')).toBe('req-500');
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      error: 'InternalServerError',
      message: expect.stringContaining('req-500'),
      details: null,
    });
    expect(text).not.toContain('secret internal detail');
    expect(text).not.toMatch(/\bat .*:\d+:\d+|stack/i);
  });
});

describe('X-Request-Id (DECISIONS.md §Errors: a 500 names the request id)', () => {
  it('echoes a client-supplied id on success and on errors', async () => {
    const ok = await api('/setup/status', { headers: { 'X-Request-Id': 'client-id-123' } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('X-Request-Id')).toBe('client-id-123');
    const missing = await api('/no-such-thing', { headers: { 'X-Request-Id': 'client-id-456' } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('X-Request-Id')).toBe('client-id-456');
  });

  it('generates a fresh id when the client sends none or an unusable one', async () => {
    const first = (await api('/setup/status')).headers.get('X-Request-Id');
    const second = (await api('/setup/status')).headers.get('X-Request-Id');
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toMatch(/^[0-9a-f-]{36}$/);
    expect(first).not.toBe(second);
    const unusable = await api('/setup/status', { headers: { 'X-Request-Id': 'has spaces <and> markup' } });
    expect(unusable.headers.get('X-Request-Id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});
