/**
 * The layers of docs/ARCHITECTURE.md, enforced (issue 23 point 1): only src/repositories/ and src/db/ reach the
 * database; no import climbs the floor order; src/ never imports durable-objects/, consumers/, worker/ or web/;
 * no import circles anywhere, web/ included. Each rule also runs over a planted violation, so a rule that
 * stopped seeing what it is for fails here too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkCycles,
  checkDatabaseAccess,
  checkEntryPoints,
  checkFloors,
  type FileSet,
  FLOORS,
  RULES,
  type RuleName,
  type Violation,
} from '../support/architecture';

const ROOT = path.resolve(__dirname, '../..');
/** What the rules read: the back end, its runtime entries, and the web app. Tests are not part of it. */
const SOURCE_ROOTS = ['src', 'consumers', 'durable-objects', 'worker', 'web/src'];

function sourceTree(): FileSet {
  const files = new Map<string, string>();
  for (const root of SOURCE_ROOTS) {
    for (const relative of readdirSync(path.join(ROOT, root), { recursive: true, encoding: 'utf8' })) {
      const file = `${root}/${relative.split(path.sep).join('/')}`;
      if (!/\.tsx?$/.test(file) || /\.test\.tsx?$/.test(file) || file.endsWith('.d.ts')) continue;
      files.set(file, readFileSync(path.join(ROOT, file), 'utf8'));
    }
  }
  return files;
}

const tree = sourceTree();
const report = (violations: Violation[]) => violations.map((v) => `${v.file}: ${v.detail}`);

describe('architecture (docs/ARCHITECTURE.md)', () => {
  it('reads the whole tree', () => {
    expect(tree.size).toBeGreaterThan(300);
    expect([...tree.keys()].filter((f) => f.startsWith('web/src/')).length).toBeGreaterThan(30);
  });

  it.each(Object.keys(RULES) as RuleName[])('%s: no violations', (rule) => {
    expect(report(RULES[rule](tree))).toEqual([]);
  });

  it('no entry is on two floors', () => {
    const entries = FLOORS.flatMap((floor) => floor.members);
    expect(new Set(entries).size).toBe(entries.length);
  });
});

/** A small tree that follows every rule; each planted violation below adds one file or line to it. */
const CLEAN: Array<[string, string]> = [
  ['src/lib/ids.ts', "export const newId = () => 'id';"],
  ['src/db/schema.ts', "export * from './tables/books';"],
  [
    'src/db/tables/books.ts',
    "import { sqliteTable } from 'drizzle-orm/sqlite-core';\nexport const books = sqliteTable('books', {});",
  ],
  [
    'src/repositories/books.repository.ts',
    "import { eq } from 'drizzle-orm';\nimport { books } from '../db/schema';\nexport const byId = (db: any, id: string) => db.select().from(books).where(eq(books.id, id));",
  ],
  ['src/services/books.service.ts', "import { byId } from '../repositories/books.repository';\nexport { byId };"],
  ['src/routes/books/index.ts', "import { byId } from '../../services/books.service';\nexport const r = byId;"],
  ['src/app.ts', "import { r } from './routes/books';\nexport const app = r;"],
  ['worker/index.ts', "import { app } from '../src/app';\nexport default app;"],
  ['web/src/main.tsx', "import { App } from './app';\nexport const main = App;"],
  [
    'web/src/app.tsx',
    "import type { newId } from '../../src/lib/ids';\nexport const App = 1;\nexport type Id = typeof newId;",
  ],
];
const planted = (...changes: Array<[string, string]>): FileSet => new Map([...CLEAN, ...changes]);

describe('each rule detects a planted violation', () => {
  it('the clean tree passes every rule', () => {
    for (const rule of Object.values(RULES)) expect(report(rule(planted()))).toEqual([]);
  });

  it('database-access: a service importing the tables', () => {
    const files = planted([
      'src/services/books.service.ts',
      "import { books } from '../db/schema';\nexport const table = books;",
    ]);
    expect(report(checkDatabaseAccess(files))).toEqual([
      'src/services/books.service.ts: line 1: imports the tables (../db/schema)',
    ]);
  });

  it('database-access: a table file imported directly, from a Durable Object', () => {
    const files = planted([
      'durable-objects/runner.ts',
      "import type { books } from '../src/db/tables/books';\nexport type T = typeof books;",
    ]);
    expect(report(checkDatabaseAccess(files))).toEqual([
      'durable-objects/runner.ts: line 1: imports the tables (../src/db/tables/books)',
    ]);
  });

  it('database-access: drizzle imported, a handle queried, a statement prepared, DO storage run', () => {
    const files = planted(
      ['src/tasks/handler.ts', "import { sql } from 'drizzle-orm';\nexport const q = sql`select 1`;"],
      ['consumers/work.ts', 'export const run = (ctx: any) => ctx.db.batch([]);'],
      ['src/routes/health.ts', 'export const ping = (c: any) => c.env.DB.prepare("select 1").run();'],
      ['src/scanning/other.ts', "export const clear = (sql: any) => sql.exec('DELETE FROM seen');"],
    );
    expect(report(checkDatabaseAccess(files))).toEqual([
      'src/tasks/handler.ts: line 1: imports drizzle-orm',
      'consumers/work.ts: line 1: queries the database (db.batch)',
      'src/routes/health.ts: line 1: prepares an SQL statement (.prepare)',
      'src/scanning/other.ts: line 1: runs SQL on Durable Object storage (sql.exec) outside its store module',
    ]);
  });

  it('database-access: a regular expression’s exec and a Map’s delete are not SQL', () => {
    const files = planted([
      'src/lib/match.ts',
      'const seen = new Map();\nexport const m = (s: string) => { seen.delete(s); return /a/.exec(s); };',
    ]);
    expect(report(checkDatabaseAccess(files))).toEqual([]);
  });

  it('floors: a repository importing a service (a type import counts)', () => {
    const files = planted([
      'src/repositories/books.repository.ts',
      "import type { byId } from '../services/books.service';\nexport type B = typeof byId;",
    ]);
    expect(report(checkFloors(files))).toEqual([
      'src/repositories/books.repository.ts: line 1: repositories imports src/services/books.service.ts on the floor above (services)',
    ]);
  });

  it('floors: a file on no floor', () => {
    expect(report(checkFloors(planted(['src/misc/thing.ts', 'export const x = 1;'])))).toEqual([
      'src/misc/thing.ts: is on no floor: add its folder to FLOORS',
    ]);
  });

  it('entry-points: src/ importing a Durable Object (dynamic import) or the web app', () => {
    const files = planted(
      ['durable-objects/runner.ts', 'export class Runner {}'],
      ['src/services/tasks.service.ts', "export const load = () => import('../../durable-objects/runner');"],
      ['src/lib/labels.ts', "export { App } from '../../web/src/app';"],
    );
    expect(report(checkEntryPoints(files))).toEqual([
      'src/services/tasks.service.ts: line 1: imports ../../durable-objects/runner',
      'src/lib/labels.ts: line 1: imports ../../web/src/app',
    ]);
  });

  it('cycles: a circle through an index file, and one in the web app', () => {
    const files = planted(
      ['src/routes/books/index.ts', "import { byId } from '../../services/books.service';\nexport const r = byId;"],
      [
        'src/services/books.service.ts',
        "import type { r } from '../routes/books';\nexport const byId = 1;\nexport type R = typeof r;",
      ],
      ['web/src/screens/home.tsx', "import { App } from '../app';\nexport const Home = App;"],
      ['web/src/app.tsx', "import { Home } from './screens/home';\nexport const App = 1;\nexport const H = Home;"],
    );
    expect(report(checkCycles(files))).toEqual([
      'src/routes/books/index.ts: import circle: src/routes/books/index.ts → src/services/books.service.ts → src/routes/books/index.ts',
      'web/src/app.tsx: import circle: web/src/app.tsx → web/src/screens/home.tsx → web/src/app.tsx',
    ]);
  });
});
