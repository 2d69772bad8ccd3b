/**
 * The architecture rules of docs/ARCHITECTURE.md as a checker over a set of source files (repository-relative
 * path → text). test/node/architecture.test.ts runs it over the real tree, and each rule once more over a small
 * planted file set, so a rule that stopped seeing its violation would fail too.
 *
 * Imports are read with the TypeScript parser (static, re-exports, `import()` calls and `import('…')` types;
 * type-only imports count: they are dependencies to a reader and to the type checker, and the web app's type
 * imports of the schemas are exactly what must not drag a service along).
 */
import path from 'node:path/posix';
import ts from 'typescript';

/** Repository-relative POSIX path → source text. */
export type FileSet = ReadonlyMap<string, string>;

export type RuleName = 'database-access' | 'floors' | 'entry-points' | 'cycles';

export interface Violation {
  rule: RuleName;
  /** The file at fault (for a circle: every member, see `members`). */
  file: string;
  detail: string;
  /** A circle's files, in import order. */
  members?: string[];
}

/**
 * The floors, lowest first. A file may import its own floor and the floors below, never one above; every file
 * of src/ is on exactly one floor (the longest matching entry decides). Entries are folders or single files.
 */
export const FLOORS: ReadonlyArray<{ name: string; members: readonly string[] }> = [
  { name: 'foundation', members: ['src/lib', 'src/config', 'src/version.ts'] },
  { name: 'database', members: ['src/db'] },
  // The filter and sort language the repositories compile into SQL sits with them.
  { name: 'repositories', members: ['src/repositories', 'src/catalog'] },
  {
    name: 'domain',
    members: [
      'src/auth',
      'src/events',
      'src/ingest',
      'src/lists',
      'src/mappers',
      'src/media',
      'src/pages',
      'src/progress',
      'src/reading',
      'src/releases',
      'src/scanning',
      'src/schemas',
      'src/storage',
      'src/tasks',
      'src/thumbnails',
    ],
  },
  { name: 'services', members: ['src/services'] },
  {
    name: 'entry',
    members: [
      'src/env.ts',
      'src/composition-root.ts',
      'src/http',
      'src/middleware',
      'src/routes',
      'src/opds',
      'src/koreader',
      'src/komga',
      'src/kobo',
      'src/openapi',
      'src/web',
      // The test-only seam that wraps the platform's bindings as an entry receives them (docs/RELIABILITY.md).
      'src/fault-injection',
    ],
  },
  // The app, and the command that builds it to print its OpenAPI document.
  { name: 'app', members: ['src/app.ts', 'src/openapi/export.ts'] },
];

/** Where SQL may be written and the tables imported. */
export const DATABASE_FOLDERS = ['src/repositories', 'src/db'];

/**
 * A Durable Object's private SQLite storage (not the catalog database) is written by one store module per
 * object, and nowhere else.
 */
export const DURABLE_OBJECT_STORES = ['src/scanning/scan-store.ts', 'durable-objects/event-hub.ts'];

/** The back end the database rule covers: src/ and the runtime entries that use it. */
export const BACK_END = ['src', 'consumers', 'durable-objects', 'worker'];

/** Folders beside src/ that use it; src/ never imports them. */
export const OUTSIDE_SRC = ['durable-objects', 'consumers', 'worker', 'web'];

/** Packages that talk SQL: only the database folders import them. */
const SQL_PACKAGES = /^(drizzle-orm|@libsql\/client)(\/|$)/;
/** Tables: the schema and its table files. */
const TABLES = /^src\/db\/(schema\.ts|tables\/)/;
/** Query-builder and driver members of a database handle (`db`, `this.db`, `ctx.db`, `database`, `tx`). */
const QUERY_MEMBERS = new Set([
  'select',
  'selectDistinct',
  'insert',
  'update',
  'delete',
  'batch',
  'run',
  'all',
  'get',
  'values',
  'with',
  'query',
  '$count',
  '$client',
  '$with',
]);
const DATABASE_HANDLES = new Set(['db', 'database', 'tx']);

const within = (file: string, entry: string) => file === entry || file.startsWith(`${entry}/`);
const withinAny = (file: string, entries: readonly string[]) => entries.some((entry) => within(file, entry));

export interface ImportRef {
  specifier: string;
  line: number;
}

/** Parsed files, by path and text: every rule reads the same tree, which is parsed once. */
const parsed = new Map<string, ts.SourceFile>();

function parse(file: string, text: string): ts.SourceFile {
  const key = `${file}\0${text}`;
  let source = parsed.get(key);
  if (!source) {
    const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
    source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
    parsed.set(key, source);
  }
  return source;
}

const importsByFile = new WeakMap<ts.SourceFile, ImportRef[]>();

/** Every module specifier a file names: imports, re-exports, `import()` calls and `import('…')` types. */
export function importsOf(file: string, text: string): ImportRef[] {
  const source = parse(file, text);
  const known = importsByFile.get(source);
  if (known) return known;
  const refs: ImportRef[] = [];
  importsByFile.set(source, refs);
  const add = (literal: ts.StringLiteralLike) =>
    refs.push({ specifier: literal.text, line: source.getLineAndCharacterOfPosition(literal.getStart()).line + 1 });
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteralLike(node.moduleSpecifier)) add(node.moduleSpecifier);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [first] = node.arguments;
      if (first && ts.isStringLiteralLike(first)) add(first);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      if (ts.isStringLiteralLike(node.argument.literal)) add(node.argument.literal);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return refs;
}

const EXTENSIONS = ['', '.ts', '.tsx', '.d.ts', '/index.ts', '/index.tsx'];

/**
 * The file a relative specifier names (extension and `index` files resolved as the bundler does), or the
 * normalized path it points at when the set holds no such file (a .css, .wasm or .json import); null for
 * packages.
 */
export function resolve(files: FileSet, from: string, specifier: string): { path: string; known: boolean } | null {
  if (!specifier.startsWith('.')) return null;
  const bare = specifier.replace(/\?.*$/, '');
  const joined = path.normalize(path.join(path.dirname(from), bare));
  for (const extension of EXTENSIONS) {
    if (files.has(joined + extension)) return { path: joined + extension, known: true };
  }
  return { path: joined, known: false };
}

/** The import graph between the files of the set (edges to files it holds), with each edge's line. */
export function importGraph(files: FileSet): Map<string, Array<{ to: string; line: number; specifier: string }>> {
  const graph = new Map<string, Array<{ to: string; line: number; specifier: string }>>();
  for (const [file, text] of files) {
    const edges = [];
    for (const ref of importsOf(file, text)) {
      const target = resolve(files, file, ref.specifier);
      if (target?.known) edges.push({ to: target.path, line: ref.line, specifier: ref.specifier });
    }
    graph.set(file, edges);
  }
  return graph;
}

export function floorOf(file: string): number | undefined {
  let best: { index: number; length: number } | undefined;
  FLOORS.forEach((floor, index) => {
    for (const entry of floor.members) {
      if (within(file, entry) && (!best || entry.length > best.length)) best = { index, length: entry.length };
    }
  });
  return best?.index;
}

/**
 * Only src/repositories/ and src/db/ reach the database: nothing else imports the tables or an SQL package,
 * calls a query builder or driver method on a database handle, or prepares a statement; a Durable Object's
 * own SQLite storage is run (`sql.exec`) only by its store module.
 */
export function checkDatabaseAccess(files: FileSet): Violation[] {
  const violations: Violation[] = [];
  for (const [file, text] of files) {
    if (!withinAny(file, BACK_END) || withinAny(file, DATABASE_FOLDERS)) continue;
    const flag = (line: number, detail: string) =>
      violations.push({ rule: 'database-access', file, detail: `line ${line}: ${detail}` });
    for (const ref of importsOf(file, text)) {
      const target = resolve(files, file, ref.specifier);
      if (SQL_PACKAGES.test(ref.specifier)) flag(ref.line, `imports ${ref.specifier}`);
      else if (target && TABLES.test(target.path)) flag(ref.line, `imports the tables (${ref.specifier})`);
    }
    const source = parse(file, text);
    const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
    const visit = (node: ts.Node) => {
      if (ts.isPropertyAccessExpression(node)) {
        const member = node.name.text;
        const receiver = terminalName(node.expression);
        if (receiver && DATABASE_HANDLES.has(receiver) && QUERY_MEMBERS.has(member)) {
          flag(lineOf(node), `queries the database (${receiver}.${member})`);
        }
        const called = ts.isCallExpression(node.parent) && node.parent.expression === node;
        if (called && member === 'prepare') flag(lineOf(node), 'prepares an SQL statement (.prepare)');
        if (called && member === 'exec' && receiver === 'sql' && !DURABLE_OBJECT_STORES.includes(file)) {
          flag(lineOf(node), 'runs SQL on Durable Object storage (sql.exec) outside its store module');
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return violations;
}

/** `db` for `db`, `this.db`, `ctx.db`, `c.get('services').db`; undefined for anything else. */
function terminalName(expression: ts.Expression): string | undefined {
  if (ts.isIdentifier(expression)) return expression.text;
  if (ts.isPropertyAccessExpression(expression)) return expression.name.text;
  return undefined;
}

/** No import climbs: a file of src/ imports only its own floor and those below; every file is on a floor. */
export function checkFloors(files: FileSet): Violation[] {
  const violations: Violation[] = [];
  for (const [file, edges] of importGraph(files)) {
    if (!within(file, 'src')) continue;
    const floor = floorOf(file);
    if (floor === undefined) {
      violations.push({ rule: 'floors', file, detail: 'is on no floor: add its folder to FLOORS' });
      continue;
    }
    for (const edge of edges) {
      const target = floorOf(edge.to);
      if (target !== undefined && target > floor) {
        violations.push({
          rule: 'floors',
          file,
          detail: `line ${edge.line}: ${FLOORS[floor]?.name} imports ${edge.to} on the floor above (${FLOORS[target]?.name})`,
        });
      }
    }
  }
  return violations;
}

/** src/ never imports durable-objects/, consumers/, worker/ or the web app: they use src/, not the reverse. */
export function checkEntryPoints(files: FileSet): Violation[] {
  const violations: Violation[] = [];
  for (const [file, text] of files) {
    if (!within(file, 'src')) continue;
    for (const ref of importsOf(file, text)) {
      const target = resolve(files, file, ref.specifier);
      if (target && withinAny(target.path, OUTSIDE_SRC)) {
        violations.push({ rule: 'entry-points', file, detail: `line ${ref.line}: imports ${ref.specifier}` });
      }
    }
  }
  return violations;
}

/** No import circles: the strongly connected components of the import graph (Tarjan), each reported once. */
export function checkCycles(files: FileSet): Violation[] {
  const graph = importGraph(files);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  // Iterative, so a long import chain cannot overflow the call stack.
  for (const root of [...graph.keys()].sort()) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; next: number }> = [{ node: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; next: number };
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const to = (edges[frame.next++] as { to: string }).to;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(to) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string | undefined;
        do {
          member = stack.pop() as string;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        const selfLoop = component.length === 1 && edges.some((edge) => edge.to === frame.node);
        if (component.length > 1 || selfLoop) components.push(component.sort());
      }
    }
  }
  return components.map((members) => ({
    rule: 'cycles' as const,
    file: members[0] as string,
    members,
    detail: `import circle: ${circleThrough(graph, members).join(' → ')}`,
  }));
}

/** One circle through a component's first member, for the message (a shortest path back to it). */
function circleThrough(graph: ReturnType<typeof importGraph>, members: string[]): string[] {
  const inside = new Set(members);
  const start = members[0] as string;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift() as string;
    for (const { to } of graph.get(node) ?? []) {
      if (!inside.has(to)) continue;
      if (to === start) {
        const circle = [start];
        for (let at: string | undefined = node; at && at !== start; at = previous.get(at)) circle.splice(1, 0, at);
        return [...circle, start];
      }
      if (!previous.has(to)) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return members;
}

export const RULES: Record<RuleName, (files: FileSet) => Violation[]> = {
  'database-access': checkDatabaseAccess,
  floors: checkFloors,
  'entry-points': checkEntryPoints,
  cycles: checkCycles,
};
