// Shared by every bench file: timing statistics, the machine description, and writing one `##`
// section of docs/BENCHMARKS.md without touching the sections other benchmarks wrote.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SMOKE } from './smoke.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BENCHMARKS_MD = path.join(ROOT, 'docs/BENCHMARKS.md');

const HEADER = `# Benchmarks

Measured numbers behind design decisions. Every \`##\` section below is written by one file in
\`bench/\` and replaced as a whole when that file runs again (\`npm run bench\` runs all of them,
\`npm run bench -- <name>\` only the matching ones; see bench/README.md). Do not edit a section by
hand: change its bench file and re-run it.
`;

/** Percentile by nearest rank on a sorted copy (p in 0..100). */
export function percentile(values, p) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export function summarize(values) {
  return {
    n: values.length,
    median: percentile(values, 50),
    p95: percentile(values, 95),
    min: Math.min(...values),
    max: Math.max(...values),
  };
}

export function markdownTable(headers, rows) {
  const line = (cells) => `| ${cells.join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

function versionOf(bin, args = ['--version']) {
  try {
    return execFileSync(path.join(ROOT, 'node_modules/.bin', bin), args, { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

function packageVersion(name) {
  const file = path.join(ROOT, 'node_modules', name, 'package.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).version : 'unknown';
}

/** Where the numbers came from, as a few markdown bullet lines. */
export function environmentLines(command) {
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  const memGiB = (os.totalmem() / 1024 ** 3).toFixed(1);
  return [
    `- Command: \`${command}\``,
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${os.availableParallelism()} CPUs (nproc; ${cpu}), ${memGiB} GiB memory, ${os.type()} ${os.release()}`,
    `- Node ${process.version}; ${versionOf('workerd')}; wrangler ${packageVersion('wrangler')}; miniflare ${packageVersion('miniflare')}`,
    // Other work on the machine inflates every row alike; a load above the CPU count means noisy numbers.
    `- Load average when the section was written (1/5/15 min): ${os
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(' / ')}`,
  ];
}

/** Replaces (or appends) the section whose heading is exactly `## ${title}`; a smoke run writes nothing. */
export function writeSection(title, body) {
  const heading = `## ${title}`;
  if (SMOKE) {
    console.log(`smoke run: "${heading}" of docs/BENCHMARKS.md left as it was (${body.length} characters built)`);
    return;
  }
  const text = existsSync(BENCHMARKS_MD) ? readFileSync(BENCHMARKS_MD, 'utf8') : HEADER;
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.trim() === heading);
  const section = [heading, '', body.trim(), ''];
  if (start < 0) {
    const trimmed = text.replace(/\n*$/, '\n');
    writeFileSync(BENCHMARKS_MD, `${trimmed}\n${section.join('\n')}`);
    return;
  }
  let end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  if (end < 0) end = lines.length;
  const next = [...lines.slice(0, start), ...section, ...lines.slice(end)].join('\n');
  writeFileSync(BENCHMARKS_MD, next.replace(/\n*$/, '\n'));
}

export const ms = (v) => v.toFixed(1);
export const us = (v) => Math.round(v).toLocaleString('en-US');
