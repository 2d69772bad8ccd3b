/**
 * The fake providers on a loopback port (`http://localhost:<port>`), for `wrangler dev` (browser tests, the release-poll bench): point
 * `LONGBOX_RELEASES__MANGAUPDATES_URL` at `${url}/mangaupdates/v1` and `LONGBOX_RELEASES__ANILIST_URL` at
 * `${url}/anilist`, and control it at `${url}/__fake/…` (fake-providers.mjs).
 */
import { createServer } from 'node:http';
import { createFakeProviders } from './fake-providers.mjs';
import { providerExamples } from './examples.mjs';

export async function startFakeProviders(root) {
  const fakes = createFakeProviders(providerExamples(root));
  const server = createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const headers = { 'content-type': req.headers['content-type'] ?? 'application/json' };
    const request = new Request(`http://127.0.0.1${req.url}`, { method: req.method, headers, body });
    const answer = (await fakes.handle(request)) ?? new Response('not a fake provider request', { status: 404 });
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  server.keepAliveTimeout = 30_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  // Addressed as `localhost` (workerd's fetch refuses a bare IP address); answered on ::1 too where it exists.
  const ipv6 = createServer((req, res) => server.emit('request', req, res));
  await new Promise((resolve) => {
    ipv6.once('error', () => resolve());
    ipv6.listen(port, '::1', resolve);
  });
  const url = `http://localhost:${port}`;
  return {
    url,
    /** The worker variables that point Longbox at these fakes, at full speed. */
    vars: {
      LONGBOX_RELEASES__MANGAUPDATES_URL: `${url}/mangaupdates/v1`,
      LONGBOX_RELEASES__ANILIST_URL: `${url}/anilist`,
      LONGBOX_RELEASES__MANGAUPDATES_MIN_INTERVAL_MS: '0',
      LONGBOX_RELEASES__ANILIST_MIN_INTERVAL_MS: '0',
    },
    stop: () =>
      Promise.all([
        new Promise((resolve) => server.close(() => resolve())),
        new Promise((resolve) => (ipv6.listening ? ipv6.close(() => resolve()) : resolve())),
      ]).then(() => undefined),
  };
}
