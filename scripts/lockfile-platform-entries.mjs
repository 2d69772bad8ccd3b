#!/usr/bin/env node
// Adds package-lock entries for optional platform binaries (other OSes and CPUs) that the registry
// this project is developed against does not serve. npm then leaves them out of the lockfile, and
// `npm ci` refuses the lockfile as "out of sync". The added entries carry only os/cpu/libc, so npm
// never tries to fetch them on a platform they do not match. Run after any `npm install`.
import { readFileSync, writeFileSync } from 'node:fs';

const LOCK = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(LOCK, 'utf8'));
const packages = lock.packages;

const OS = {
  android: 'android',
  darwin: 'darwin',
  linux: 'linux',
  win32: 'win32',
  windows: 'win32',
  freebsd: 'freebsd',
};
const CPU = { arm64: 'arm64', x64: 'x64', 64: 'x64', ia32: 'ia32', arm: 'arm' };

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.map((p) => OS[p]).find(Boolean);
  const cpu = parts.map((p) => CPU[p]).findLast(Boolean);
  if (!os || !cpu) return null;
  const entry = { os: [os], cpu: [cpu] };
  if (parts.includes('musl')) entry.libc = ['musl'];
  return entry;
}

/** Whether Node, starting at `location`, finds `name` at exactly `version` (the nearest copy wins). */
function resolves(location, name, version) {
  let dir = location;
  for (;;) {
    const found = packages[`${dir}/node_modules/${name}`];
    if (found) return found.version === version;
    const cut = dir.lastIndexOf('/node_modules/');
    if (cut < 0) return packages[`node_modules/${name}`]?.version === version;
    dir = dir.slice(0, cut);
  }
}

let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    if (resolves(location, name, version)) continue;
    const platform = platformOf(name);
    if (!platform) continue;
    const parent = location.slice(0, location.lastIndexOf('node_modules/'));
    packages[`${parent}node_modules/${name}`] = {
      version,
      ...platform,
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
    };
    added += 1;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} platform entries added`);
