#!/usr/bin/env node
// `npm start`: apply migrations to the local D1 (state kept in .wrangler/state between restarts),
// then run the API worker and the native-image worker together in `wrangler dev` (real workerd).
import { spawnSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const port = process.env.PORT ?? '8787';
const wrangler = new URL('../node_modules/.bin/wrangler', import.meta.url).pathname;

// The web app's files (dist/web) must exist before wrangler starts: its [assets] directory.
const web = spawnSync(process.execPath, ['scripts/build-web.mjs'], { stdio: 'inherit' });
if (web.status !== 0) process.exit(web.status ?? 1);

const migrate = spawnSync(wrangler, ['d1', 'migrations', 'apply', 'DB', '--local'], {
  stdio: 'inherit',
  env: { ...process.env, CI: 'true' }, // no interactive confirmation
});
if (migrate.status !== 0) process.exit(migrate.status ?? 1);

const configs = ['-c', 'wrangler.toml'];
if (existsSync('renderer/wrangler.toml')) configs.push('-c', 'renderer/wrangler.toml');
const host = process.env.HOST ?? '127.0.0.1';
const dev = spawn(wrangler, ['dev', ...configs, '--port', port, '--ip', host, '--test-scheduled'], {
  stdio: 'inherit',
});

// wrangler dev does not fire cron triggers by itself: tick the worker's scheduled handler once a minute,
// as Cloudflare would, so cron_schedule scans work locally too.
const cronTimer = setInterval(() => {
  fetch(
    `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}/__scheduled?cron=${encodeURIComponent('* * * * *')}`,
  ).catch(
    () => {}, // not listening yet, or restarting
  );
}, 60_000);

for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => dev.kill(signal));
dev.on('exit', (code) => {
  clearInterval(cronTimer);
  process.exit(code ?? 0);
});
