// Bundles the renderer worker with wrangler (`wrangler deploy --dry-run --outdir`) for the API worker's
// vitest project, where it runs as an auxiliary worker behind the RENDERER service binding: miniflare
// needs built JS + wasm for auxiliary workers. Output goes to .tmp/renderer/<hash of the inputs>/, so an
// unchanged renderer is not rebuilt and concurrent test runs never read a half-written bundle.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

const INPUTS = ['renderer/src', 'renderer/vendor', 'renderer/wrangler.toml', 'package-lock.json'];

function files(entry) {
  if (!existsSync(entry)) return [];
  if (!statSync(entry).isDirectory()) return [entry];
  return readdirSync(entry).flatMap((name) => files(path.join(entry, name)));
}

function inputsHash(root) {
  const hash = createHash('sha256');
  for (const file of INPUTS.flatMap((input) => files(path.join(root, input))).sort()) {
    const { mtimeMs, size } = statSync(file);
    hash.update(`${path.relative(root, file)}\0${mtimeMs}\0${size}\n`);
  }
  return hash.digest('hex').slice(0, 16);
}

/** Returns the absolute path of the bundled entry (index.js), building it when the inputs changed. */
export function bundleRenderer(root) {
  const outdir = path.join(root, '.tmp', 'renderer', inputsHash(root));
  const entry = path.join(outdir, 'index.js');
  if (existsSync(entry)) return entry;
  const partial = `${outdir}.partial-${process.pid}`;
  mkdirSync(partial, { recursive: true });
  // The Node running vitest (>= 22, which wrangler needs), not whichever `node` is first on PATH.
  const wrangler = path.join(root, 'node_modules', 'wrangler', 'bin', 'wrangler.js');
  const build = spawnSync(
    process.execPath,
    [wrangler, 'deploy', '--dry-run', '--outdir', partial, '-c', path.join(root, 'renderer', 'wrangler.toml')],
    { cwd: root, encoding: 'utf8', env: { ...process.env, CI: 'true' } },
  );
  if (build.status !== 0) {
    rmSync(partial, { recursive: true, force: true });
    throw new Error(`bundling the renderer failed:\n${build.stdout}\n${build.stderr}`);
  }
  try {
    renameSync(partial, outdir);
  } catch {
    rmSync(partial, { recursive: true, force: true }); // another run finished the same bundle first
  }
  return entry;
}

/**
 * Miniflare options for the renderer as an auxiliary worker of another vitest project: its bindings as
 * renderer/wrangler.toml declares them (same LIBRARY bucket id as the API worker, so both see one bucket)
 * and the bundle above as its script.
 */
export async function rendererAuxiliaryWorker(root) {
  const wrangler = await import('wrangler');
  const config = wrangler.unstable_readConfig({ config: path.join(root, 'renderer', 'wrangler.toml') });
  const { modulesRules: _rules, ...workerOptions } = wrangler.unstable_getMiniflareWorkerOptions(config).workerOptions;
  const outdir = path.dirname(bundleRenderer(root));
  // Miniflare does not follow a script's imports for auxiliary workers: list the wasm modules explicitly.
  const modules = readdirSync(outdir)
    .filter((name) => name === 'index.js' || name.endsWith('.wasm'))
    .sort((a) => (a === 'index.js' ? -1 : 0))
    .map((name) => ({ type: name === 'index.js' ? 'ESModule' : 'CompiledWasm', path: path.join(outdir, name) }));
  return { ...workerOptions, name: config.name, modules, modulesRoot: outdir, rootPath: outdir };
}
