/**
 * `npm run migrate -- komga <database.sqlite> | kavita <kavita.db or kavita_backup_*.zip> --url <longbox>
 * --api-key <admin key>`: moves a household from Komga or Kavita to Longbox (docs/DECISIONS.md §Coming from
 * Komga or Kavita; README "Coming from Komga or Kavita"). The peer's database is read read-only on this machine
 * and never leaves it; what it holds goes to Longbox through the admin import API, in batches.
 * Exit codes: 0 done (the report says what did not move), 1 the migration could not run, 2 bad usage.
 */
import { open, stat } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { MigrationClient } from './migrate/client';
import { openKavitaBackup } from './migrate/kavita-backup';
import { coversBeside, readKavita } from './migrate/kavita';
import { readKomga } from './migrate/komga';
import { MigrationInputError, type PeerSnapshot } from './migrate/peer';
import { formatReport, type MigrateOptions, migrate } from './migrate/run';

const USAGE = `Usage: npm run migrate -- komga <database.sqlite> --api-key <admin key> [options]
       npm run migrate -- kavita <kavita.db | kavita_backup_*.zip> --api-key <admin key> [options]

Reads the Komga or Kavita database read-only on this machine and imports its users (with their passwords and
restrictions), read progress, collections, read lists, want-to-read, hand-edited metadata, uploaded covers and
Komga API keys into a running Longbox. Books are matched to Longbox's by path, KOReader hash, or size and name;
upload the files first (npm run import) and let the scan finish. Running it again changes nothing.
  --url <url>                   Longbox (default http://localhost:8787)
  --api-key <key>               an admin's API key (default: env LONGBOX_API_KEY)
  --library-map <theirs>=<ours> their library (by name) is this Longbox library (name or id); repeatable.
                                Without it, libraries are matched by name
  --merge-users                 a user whose e-mail or name a Longbox account has is imported into that
                                account (otherwise skipped and reported)
  --dry-run                     match the books and report; write nothing
  -h, --help                    show this help`;

function usageError(problem: string): never {
  process.stderr.write(`migrate: ${problem}\n\n${USAGE}\n`, () => process.exit(2));
  throw new UsageError();
}

/** Stops the command after its usage was written (the exit follows once it is out). */
class UsageError extends Error {}

function parse() {
  return parseArgs({
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      'api-key': { type: 'string' },
      'library-map': { type: 'string', multiple: true },
      'merge-users': { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

function readOptions() {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse();
  } catch (error) {
    usageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${USAGE}\n`, () => process.exit(0));
    throw new UsageError();
  }
  const [kind, file, ...extra] = positionals;
  if (kind !== 'komga' && kind !== 'kavita') usageError('say which server you come from: komga or kavita');
  if (!file || extra.length > 0)
    usageError(`give exactly one ${kind === 'komga' ? 'database.sqlite' : 'kavita.db or backup zip'}`);
  const apiKey = values['api-key'] ?? process.env.LONGBOX_API_KEY;
  if (!apiKey) usageError('an admin API key is required (--api-key or LONGBOX_API_KEY)');
  const libraryMap = (values['library-map'] ?? []).map((pair): [string, string] => {
    const at = pair.indexOf('=');
    if (at <= 0 || at === pair.length - 1)
      usageError(`--library-map takes <their library>=<Longbox library>, not "${pair}"`);
    return [pair.slice(0, at), pair.slice(at + 1)];
  });
  const options: MigrateOptions = {
    url: values.url ?? 'http://localhost:8787',
    libraryMap,
    dryRun: values['dry-run'] ?? false,
    mergeUsers: values['merge-users'] ?? false,
  };
  return { kind, file, apiKey, options };
}

/** A zip starts with a local file header (`PK\x03\x04`); Kavita's backup is one, its database is not. */
async function isZip(file: string): Promise<boolean> {
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) return false;
  try {
    const head = new Uint8Array(4);
    await handle.read(head, 0, 4, 0);
    return head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04;
  } finally {
    await handle.close();
  }
}

async function main(): Promise<number> {
  const { kind, file, apiKey, options } = readOptions();
  if (!(await stat(file).catch(() => null))?.isFile())
    throw new MigrationInputError(`${file} does not exist or is not a file`);
  let snapshot: PeerSnapshot;
  let dispose = async () => {};
  if (kind === 'komga') {
    snapshot = readKomga(file);
  } else if (await isZip(file)) {
    const backup = await openKavitaBackup(file);
    dispose = backup.dispose;
    try {
      snapshot = readKavita({ database: backup.database, temporary: true, cover: backup.cover });
    } catch (error) {
      await dispose();
      throw error;
    }
  } else {
    snapshot = readKavita({ database: file, temporary: false, cover: coversBeside(file) });
  }
  try {
    const peer = kind === 'komga' ? 'Komga' : 'Kavita';
    console.log(
      `${peer} database ${file} (schema ${snapshot.schemaVersion}): ${snapshot.libraries.length} libraries, ${snapshot.books.length} books, ${snapshot.users.length} users, ${snapshot.progress.length} progress rows`,
    );
    const report = await migrate(snapshot, new MigrationClient(options.url, apiKey), options, (line) =>
      console.log(line),
    );
    for (const line of formatReport(report, snapshot, options)) console.log(line);
    return 0;
  } finally {
    await dispose();
  }
}

/** fetch reports "fetch failed" and hides the reason (refused connection, bad host) in `cause`. */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}

/** Exits once stdout and stderr took everything written (a long report to a pipe is written asynchronously). */
function exit(code: number): void {
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

main().then(exit, (error: unknown) => {
  if (error instanceof UsageError) return;
  console.error(`migrate: ${describeError(error)}`);
  exit(1);
});
