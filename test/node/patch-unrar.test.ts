/**
 * The committed eval-free unrar glue must be exactly what scripts/patch-unrar.mjs makes from the
 * installed node-unrar-js, so an upgrade cannot silently leave a stale (or eval-using) copy behind.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(__dirname, '../..');

describe('vendored unrar glue (issue 3: node-unrar-js without new Function for workerd)', () => {
  it('is up to date with scripts/patch-unrar.mjs and generates no code from strings', () => {
    const outDir = mkdtempSync(path.join(tmpdir(), 'patch-unrar-'));
    try {
      execFileSync(process.execPath, [path.join(root, 'scripts/patch-unrar.mjs'), outDir], { stdio: 'pipe' });
      const fresh = readFileSync(path.join(outDir, 'unrar.js'), 'utf8');
      const committed = readFileSync(path.join(root, 'src/media/rar/vendor/unrar.js'), 'utf8');
      expect(committed === fresh, 'run `node scripts/patch-unrar.mjs` and commit the result').toBe(true);
      expect(committed).not.toMatch(/new Function|\beval\(/);
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});
