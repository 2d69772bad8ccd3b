/**
 * EPUBCheck (W3C's validator; Debian's `epubcheck` package, which `.ci/run` installs) over a file: its
 * messages by severity. Debian ships it as an executable JAR (`/usr/bin/epubcheck` → epubcheck.jar), which runs
 * through `java -jar`. Tests skip, naming the package, when it is not installed.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const MISSING_EPUBCHECK = "EPUBCheck tests skipped: install Debian's epubcheck (apt-get install epubcheck)";

function jarPath(): string | null {
  for (const candidate of ['/usr/bin/epubcheck', '/usr/share/java/epubcheck.jar']) {
    if (existsSync(candidate)) return realpathSync(candidate);
  }
  return null;
}

const JAR = jarPath();
export const HAS_EPUBCHECK = JAR !== null && spawnSync('java', ['-version']).error === undefined;

export interface EpubcheckMessage {
  severity: 'FATAL' | 'ERROR' | 'WARNING' | 'USAGE' | 'INFO' | 'SUPPRESSED';
  ID: string;
  message: string;
  locations?: Array<{ path: string; line: number; column: number }>;
}

/** Validates the EPUB at `file`; every message EPUBCheck reported. */
export function epubcheck(file: string): EpubcheckMessage[] {
  if (!JAR) throw new Error(MISSING_EPUBCHECK);
  const work = mkdtempSync(path.join(tmpdir(), 'longbox-epubcheck-'));
  try {
    const report = path.join(work, 'report.json');
    const run = spawnSync('java', ['-jar', JAR, file, '--json', report], { encoding: 'utf8', timeout: 120_000 });
    if (!existsSync(report)) throw new Error(`epubcheck wrote no report: ${run.stdout}\n${run.stderr}`);
    return (JSON.parse(readFileSync(report, 'utf8')) as { messages: EpubcheckMessage[] }).messages;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Errors and fatal errors, as `ID path:line: message` lines (the assertion's readable form). */
export const epubcheckErrors = (messages: readonly EpubcheckMessage[]) =>
  messages
    .filter((m) => m.severity === 'ERROR' || m.severity === 'FATAL')
    .map((m) => `${m.ID} ${m.locations?.[0]?.path ?? ''}:${m.locations?.[0]?.line ?? ''}: ${m.message}`);
