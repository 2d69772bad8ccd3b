/**
 * Issue 11 point 4 (and the project rule "dependencies point one way"): worker/, durable-objects/ and
 * consumers/ use src/; nothing in src/ imports them, type-only imports included, so there is no cycle.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const SRC = path.join(ROOT, 'src');
const OUTSIDE = ['durable-objects', 'consumers', 'worker'].map((dir) => path.join(ROOT, dir));
/** Static imports, re-exports, dynamic imports and `import('…')` types. */
const SPECIFIER = /(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(dir, file));
}

describe('dependency direction (issue 11 point 4)', () => {
  it('no file in src/ imports durable-objects/, consumers/ or worker/', () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(100);
    const offenders: string[] = [];
    for (const file of files) {
      for (const [, specifier] of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
        if (!specifier?.startsWith('.')) continue;
        const target = path.resolve(path.dirname(file), specifier);
        if (OUTSIDE.some((dir) => target === dir || target.startsWith(`${dir}${path.sep}`))) {
          offenders.push(`${path.relative(ROOT, file)} → ${specifier}`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });

  it('the check sees such an import when there is one', () => {
    const line = "import type { TaskRunner } from '../../durable-objects/task-runner';";
    const [, specifier] = [...line.matchAll(SPECIFIER)][0] ?? [];
    const target = path.resolve(path.join(SRC, 'services'), specifier ?? '');
    expect(OUTSIDE.some((dir) => target.startsWith(`${dir}${path.sep}`))).toBe(true);
  });
});
