/**
 * Kavita's backup (`kavita_backup_<date>_v<version>.zip`, Kareadita/Kavita `BackupService`): `kavita.db` (with
 * its `-wal` when there was one) at the root and the locked covers under `covers/`. The database is copied out
 * to a temporary folder, streamed (a backup with its covers and logs may be large: nothing is read whole), and
 * the covers are read from the zip when asked for.
 */
import { createWriteStream } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { RangeReader } from '../../src/media/range-reader';
import { readZipDirectory, type ZipEntry } from '../../src/media/zip/directory';
import { openEntryStream, readEntryBytes } from '../../src/media/zip/entry';
import { MigrationInputError } from './peer';

/** A cover larger than this is not a cover (Longbox refuses covers above 20 MB). */
const MAX_COVER_BYTES = 20 * 1024 * 1024;

/** Random access to a local file, as the zip reader takes it. */
async function fileRangeReader(file: string): Promise<RangeReader & { close(): Promise<void> }> {
  const handle = await open(file, 'r');
  const { size } = await handle.stat();
  const read = async (offset: number, length: number) => {
    const bytes = new Uint8Array(length);
    const { bytesRead } = await handle.read(bytes, 0, length, offset);
    if (bytesRead !== length) throw new Error(`${file} ends before byte ${offset + length}`);
    return bytes;
  };
  return {
    size,
    read,
    stream: async (offset, length) => {
      const bytes = await read(offset, length);
      return new ReadableStream({
        start(controller) {
          controller.enqueue(bytes);
          controller.close();
        },
      });
    },
    close: () => handle.close(),
  };
}

export interface KavitaBackup {
  /** The extracted database (a temporary copy). */
  database: string;
  /** A cover file of the backup, by its name in Kavita's covers folder; null when the backup has none. */
  cover(name: string): Promise<Uint8Array | null>;
  /** Removes the temporary copy and closes the zip. */
  dispose(): Promise<void>;
}

export async function openKavitaBackup(zip: string): Promise<KavitaBackup> {
  let reader: Awaited<ReturnType<typeof fileRangeReader>>;
  try {
    reader = await fileRangeReader(zip);
  } catch (error) {
    throw new MigrationInputError(`${zip} cannot be read: ${(error as Error).message}`);
  }
  let entries: ZipEntry[];
  try {
    entries = (await readZipDirectory(reader)).entries;
  } catch (error) {
    await reader.close();
    throw new MigrationInputError(
      `${zip} is not a zip file Kavita's backup could have written (${(error as Error).message})`,
    );
  }
  const named = (name: string) => entries.find((e) => e.name === name || e.name.endsWith(`/${name}`));
  const db = named('kavita.db');
  if (!db) {
    await reader.close();
    throw new MigrationInputError(
      `${zip} holds no kavita.db: give Kavita's backup (kavita_backup_<date>_v<version>.zip, made by Settings → Backup) or the kavita.db file itself`,
    );
  }
  const folder = await mkdtemp(path.join(tmpdir(), 'longbox-kavita-'));
  const database = path.join(folder, 'kavita.db');
  try {
    await extract(reader, db, database);
    const wal = named('kavita.db-wal');
    if (wal) await extract(reader, wal, `${database}-wal`);
  } catch (error) {
    await reader.close();
    await rm(folder, { recursive: true, force: true });
    throw new MigrationInputError(`kavita.db in ${zip} cannot be read: ${(error as Error).message}`);
  }
  return {
    database,
    cover: async (name) => {
      const entry = entries.find((e) => e.name === `covers/${name}`);
      return entry && entry.size <= MAX_COVER_BYTES ? readEntryBytes(reader, entry, MAX_COVER_BYTES) : null;
    },
    dispose: async () => {
      await reader.close();
      await rm(folder, { recursive: true, force: true });
    },
  };
}

async function extract(reader: RangeReader, entry: ZipEntry, target: string): Promise<void> {
  const stream = await openEntryStream(reader, entry);
  await pipeline(Readable.fromWeb(stream as never), createWriteStream(target) as Writable);
}
