/**
 * `npm run import -- <folder> --library <name>`: loads a local folder of books into a Longbox library
 * through the API (DECISIONS.md §Storage), keeping the folder structure, then starts a scan.
 * Exit codes: 0 all files uploaded or skipped, 1 some failed or the import could not run, 2 bad usage.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { LongboxClient } from './import/client';
import { formatBytes, type ImportOptions, importFolder } from './import/run';

const MIB = 1024 * 1024;
/** One request must stay under the Workers body limit (100 MB on the smallest plans). */
const DEFAULT_MULTIPART_THRESHOLD = 90 * MIB;
/** R2 wants every part but the last at least 5 MiB and all of one size. */
const MIN_PART_SIZE = 5 * MIB;
const DEFAULT_PART_SIZE = 50 * MIB;

const USAGE = `Usage: npm run import -- <folder> --library <name> [options]

Uploads every .cbz, .cbr, .epub, .pdf, .zip and .rar below <folder> into a Longbox library, keeping relative
paths; files already in the library are skipped. Then starts a scan of the library.
  --library <name>            target library (matched by name, ignoring case)
  --url <url>                 server (default http://localhost:8787)
  --api-key <key>             API key with LibrariesRead and LibrariesWrite (default: env LONGBOX_API_KEY)
  --create --path <prefix>    create the library at this bucket prefix if it does not exist
  --overwrite                 replace files that already exist
  --concurrency <n>           parallel uploads (default 4)
  --multipart-threshold <b>   files above this many bytes use multipart (default ${DEFAULT_MULTIPART_THRESHOLD})
  --part-size <b>             multipart part size in bytes, at least ${MIN_PART_SIZE} (default ${DEFAULT_PART_SIZE})
  -h, --help                  show this help`;

function usageError(problem: string): never {
  console.error(`import: ${problem}\n\n${USAGE}`);
  process.exit(2);
}

function positiveInteger(name: string, text: string | undefined, fallback: number, minimum = 1): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < minimum) usageError(`--${name} must be an integer >= ${minimum}`);
  return value;
}

async function readOptions(): Promise<{ options: ImportOptions; url: string; apiKey: string }> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (error) {
    usageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  if (positionals.length !== 1) usageError('give exactly one folder to import');
  if (!values.library) usageError('--library is required');
  if (values.create && values.path === undefined) usageError('--create needs --path <prefix>');
  if (!values.create && values.path !== undefined) usageError('--path is only used with --create');
  const apiKey = values['api-key'] ?? process.env.LONGBOX_API_KEY;
  if (!apiKey) usageError('an API key is required (--api-key or LONGBOX_API_KEY)');
  const folder = path.resolve(positionals[0] as string);
  if (!(await stat(folder).catch(() => null))?.isDirectory()) usageError(`${folder} is not a folder`);
  return {
    url: values.url ?? 'http://localhost:8787',
    apiKey,
    options: {
      folder,
      library: values.library,
      create: values.create ?? false,
      path: values.path,
      overwrite: values.overwrite ?? false,
      concurrency: positiveInteger('concurrency', values.concurrency, 4),
      multipartThreshold: positiveInteger(
        'multipart-threshold',
        values['multipart-threshold'],
        DEFAULT_MULTIPART_THRESHOLD,
      ),
      partSize: positiveInteger('part-size', values['part-size'], DEFAULT_PART_SIZE, MIN_PART_SIZE),
    },
  };
}

function parse() {
  return parseArgs({
    allowPositionals: true,
    options: {
      library: { type: 'string' },
      url: { type: 'string' },
      'api-key': { type: 'string' },
      create: { type: 'boolean' },
      path: { type: 'string' },
      overwrite: { type: 'boolean' },
      concurrency: { type: 'string' },
      'multipart-threshold': { type: 'string' },
      'part-size': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

async function main(): Promise<number> {
  const { options, url, apiKey } = await readOptions();
  const started = Date.now();
  const summary = await importFolder(new LongboxClient(url, apiKey), options, (line) => console.log(line));
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `\nDone in ${seconds}s: ${summary.uploaded} uploaded (${formatBytes(summary.uploadedBytes)}), ` +
      `${summary.skipped} skipped, ${summary.failed.length} failed of ${summary.found} file(s).`,
  );
  for (const failure of summary.failed) console.log(`  failed: ${failure.path}: ${failure.error}`);
  return summary.failed.length > 0 ? 1 : 0;
}

/** fetch reports "fetch failed" and hides the reason (refused connection, bad host) in `cause`. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`import: ${describeError(error)}`);
    process.exit(1);
  },
);
