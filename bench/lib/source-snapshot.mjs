// A frozen copy of the workers' sources for long benchmarks. `wrangler dev` rebuilds and restarts the
// runtime whenever a watched source file changes, which aborts in-flight requests and skews timings;
// in a shared working tree files change all the time. Running wrangler on a copy (node_modules linked,
// not copied) measures exactly the code as it was when the benchmark started, undisturbed.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './report.mjs';

/** What the API worker and the renderer are built from (their imports stay inside these), and the D1 migrations. */
const SOURCES = [
  'src',
  'durable-objects',
  'worker',
  'consumers',
  'scripts',
  'renderer',
  'web', // `npm start` (scripts/start.mjs) builds the web app into dist/web before wrangler starts
  'migrations',
  'wrangler.toml',
  'package.json',
  'tsconfig.json',
];

/** Copies the sources into `dir` and returns the paths of the wrangler configs and `npm start` inside the copy. */
export function snapshotSources(dir) {
  for (const entry of SOURCES) {
    const from = path.join(ROOT, entry);
    if (!existsSync(from)) continue;
    cpSync(from, path.join(dir, entry), {
      recursive: true,
      filter: (source) => !source.split(path.sep).some((part) => part === 'node_modules' || part === '.wrangler'),
    });
  }
  // wrangler.toml serves the web app's build as static assets and refuses to start without the folder.
  const web = path.join(ROOT, 'dist/web');
  if (existsSync(web)) cpSync(web, path.join(dir, 'dist/web'), { recursive: true });
  else mkdirSync(path.join(dir, 'dist/web'), { recursive: true });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return {
    api: path.join(dir, 'wrangler.toml'),
    renderer: path.join(dir, 'renderer/wrangler.toml'),
    consumers: path.join(dir, 'consumers/wrangler.toml'),
    start: path.join(dir, 'scripts/start.mjs'),
  };
}

/**
 * The same copy made from a commit's tree instead of the working tree (`git archive`), its web app built from
 * it: a bench compares the code as it is with the code as it was, in the same run (page-serve's `--against`).
 */
export function snapshotCommit(commit, dir) {
  mkdirSync(dir, { recursive: true });
  const archive = spawnSync('git', ['-C', ROOT, 'archive', '--format=tar', commit, '--', ...SOURCES], {
    maxBuffer: 1 << 30,
  });
  if (archive.status !== 0) throw new Error(`git archive ${commit} failed: ${archive.stderr}`);
  const untar = spawnSync('tar', ['-x', '-C', dir], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`untar of ${commit} failed: ${untar.stderr}`);
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const web = spawnSync(process.execPath, [path.join(dir, 'scripts/build-web.mjs')], {
    cwd: dir,
    env: { ...process.env, CI: 'true' },
    encoding: 'utf8',
  });
  if (web.status !== 0) throw new Error(`web build of ${commit} failed:\n${web.stdout}\n${web.stderr}`);
  return {
    api: path.join(dir, 'wrangler.toml'),
    renderer: path.join(dir, 'renderer/wrangler.toml'),
    consumers: path.join(dir, 'consumers/wrangler.toml'),
    start: path.join(dir, 'scripts/start.mjs'),
  };
}
