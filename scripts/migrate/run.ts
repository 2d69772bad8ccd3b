/**
 * A migration, phase by phase (docs/DECISIONS.md §Coming from Komga or Kavita): map the peer's libraries to
 * Longbox's, match the peer's books (never guessed), then send users, hand-edited metadata, progress, lists,
 * want-to-read, API keys and covers through the admin import API in batches. Every batch is idempotent on the
 * server, so the whole run can be repeated: a second run changes nothing, a run cut off half-way is finished by
 * running it again. `dryRun` matches books and reports what would move, and writes nothing.
 */
import { batches, type BookMatch, type Counts, type MigrationClient, type Outcome, type RemoteLibrary } from './client';
import type { PeerBook, PeerSnapshot } from './peer';
import { MigrationInputError } from './peer';
import { phase } from './progress-bar';

export interface MigrateOptions {
  url: string;
  /** `--library-map <theirs>=<ours>`: their library's name to a Longbox library's name or id. */
  libraryMap: ReadonlyArray<[string, string]>;
  dryRun: boolean;
  mergeUsers: boolean;
}

export type Log = (line: string) => void;

/** What moved and what did not, for the final report. */
export interface MigrationReport {
  libraries: Array<{ name: string; longbox: string | null; reason: string | null }>;
  books: {
    total: number;
    matched: Record<'path' | 'readerHash' | 'sizeAndName', number>;
    unmatched: Array<{ path: string; reason: string }>;
  };
  users: Outcome[];
  userNames: Map<string, string>;
  userNotes: Array<{ user: string; note: string }>;
  progress: { written: number; unchanged: number; skipped: Map<string, number> };
  lists: Outcome[];
  listNames: Map<string, string>;
  wantToRead: { written: number; unchanged: number; skipped: number };
  metadata: Outcome[];
  apiKeys: Outcome[];
  covers: { imported: number; unchanged: number; missing: number; failed: Array<{ id: string; reason: string }> };
  opdsKeys: string[];
  requests: number;
}

const SIZES = { books: 1000, users: 100, progress: 1000, wantToRead: 1000, lists: 50, metadata: 200, apiKeys: 100 };

/** The peer's libraries as Longbox's: by `--library-map`, else by the same name ignoring case. */
function mapLibraries(snapshot: PeerSnapshot, remote: RemoteLibrary[], map: MigrateOptions['libraryMap']) {
  const byName = (name: string) =>
    remote.find((l) => l.id === name) ?? remote.find((l) => l.name.toLowerCase() === name.toLowerCase());
  for (const [theirs, ours] of map) {
    if (!snapshot.libraries.some((l) => l.name.toLowerCase() === theirs.toLowerCase())) {
      const names = snapshot.libraries.map((l) => `"${l.name}"`).join(', ') || 'none';
      throw new MigrationInputError(
        `--library-map names "${theirs}", which the ${snapshot.kind} database has no library of (it has ${names})`,
      );
    }
    if (!byName(ours)) {
      const names = remote.map((l) => `"${l.name}"`).join(', ') || 'none';
      throw new MigrationInputError(`--library-map names "${ours}", which Longbox has no library of (it has ${names})`);
    }
  }
  const mapped = new Map<string, RemoteLibrary>();
  const report: MigrationReport['libraries'] = [];
  for (const library of snapshot.libraries) {
    const explicit = map.find(([theirs]) => theirs.toLowerCase() === library.name.toLowerCase());
    const target = byName(explicit ? explicit[1] : library.name);
    if (target) mapped.set(library.id, target);
    report.push({
      name: library.name,
      longbox: target?.name ?? null,
      reason: target
        ? null
        : `no Longbox library named "${library.name}" (pass --library-map "${library.name}=<Longbox library>")`,
    });
  }
  return { mapped, report };
}

/** The book's path under its library's root (the longest root holding it), `/` between folders. */
function relativePath(book: PeerBook, roots: readonly string[]): string | null {
  const holding = roots
    .map((root) => (root.endsWith('/') ? root : `${root}/`))
    .filter((root) => book.path.startsWith(root) || book.path.toLowerCase().startsWith(root.toLowerCase()))
    .sort((a, b) => b.length - a.length)[0];
  return holding ? book.path.slice(holding.length) : null;
}

/** Each peer id mapped to its Longbox id, from a batch's outcomes (created, merged or found again). */
function idsOf(outcomes: readonly Outcome[]): Map<string, string> {
  return new Map(outcomes.flatMap((o) => (o.id ? [[o.foreignId, o.id] as const] : [])));
}

export async function migrate(
  snapshot: PeerSnapshot,
  client: MigrationClient,
  options: MigrateOptions,
  log: Log,
): Promise<MigrationReport> {
  const me = await client.me();
  if (me.role !== 'admin')
    throw new MigrationInputError(`the API key is ${me.username}'s, who is not an admin: use an admin's key`);
  const { mapped, report: libraries } = mapLibraries(snapshot, await client.libraries(), options.libraryMap);
  const peerName = snapshot.kind === 'komga' ? 'Komga' : 'Kavita';

  // ---- books ------------------------------------------------------------------------------------------------
  const bookPhase = phase('Books', snapshot.books.length, log);
  const rootsOf = new Map(snapshot.libraries.map((l) => [l.id, l.roots]));
  const candidates = snapshot.books.map((book) => {
    const library = mapped.get(book.libraryId);
    return {
      ref: book.id,
      libraryId: library?.id ?? null,
      path: library ? relativePath(book, rootsOf.get(book.libraryId) ?? []) : null,
      readerHash: book.readerHash,
      fileSize: book.fileSize,
      fileName: book.fileName,
    };
  });
  const matches = new Map<string, BookMatch>();
  for (const batch of batches(candidates, SIZES.books)) {
    for (const match of await client.matchBooks(batch)) matches.set(match.ref, match);
    bookPhase.advance(batch.length);
  }
  const matched = { path: 0, readerHash: 0, sizeAndName: 0 };
  const unmatched: MigrationReport['books']['unmatched'] = [];
  for (const book of snapshot.books) {
    const match = matches.get(book.id);
    if (match?.by) matched[match.by] += 1;
    else unmatched.push({ path: book.path, reason: match?.reason ?? 'not matched' });
  }
  bookPhase.done(`${snapshot.books.length - unmatched.length} of ${snapshot.books.length} matched`);
  const bookIdOf = (peerBook: string) => matches.get(peerBook)?.bookId ?? null;

  // The peer's series as Longbox's: the series most of its matched books are in.
  const votes = new Map<string, Map<string, number>>();
  for (const book of snapshot.books) {
    const seriesId = matches.get(book.id)?.seriesId;
    if (!seriesId) continue;
    const tally = votes.get(book.seriesId) ?? new Map<string, number>();
    tally.set(seriesId, (tally.get(seriesId) ?? 0) + 1);
    votes.set(book.seriesId, tally);
  }
  const seriesIdOf = (peerSeries: string) =>
    [...(votes.get(peerSeries) ?? new Map<string, number>())].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;

  const report: MigrationReport = {
    libraries,
    books: { total: snapshot.books.length, matched, unmatched },
    users: [],
    userNames: new Map(snapshot.users.map((u) => [u.id, `${u.username} <${u.email}>`])),
    userNotes: snapshot.users.flatMap((u) => u.notes.map((note) => ({ user: u.username, note }))),
    progress: { written: 0, unchanged: 0, skipped: new Map() },
    lists: [],
    listNames: new Map(snapshot.lists.map((l) => [l.id, l.name])),
    wantToRead: { written: 0, unchanged: 0, skipped: 0 },
    metadata: [],
    apiKeys: [],
    covers: { imported: 0, unchanged: 0, missing: 0, failed: [] },
    opdsKeys: snapshot.users.filter((u) => u.opdsKey).map((u) => u.username),
    requests: 0,
  };
  if (options.dryRun) {
    log(
      `Dry run: nothing was sent beyond the book matching. ${snapshot.users.length} user(s), ${snapshot.progress.length} progress row(s), ${snapshot.lists.length} list(s) would be imported.`,
    );
    report.requests = client.requests;
    return report;
  }

  // ---- users --------------------------------------------------------------------------------------------------
  const userPhase = phase('Users', snapshot.users.length, log);
  for (const batch of batches(snapshot.users, SIZES.users)) {
    const sent = batch.map((u) => ({
      foreignId: u.id,
      username: u.username,
      email: u.email,
      role: u.role,
      active: u.active,
      password: u.password,
      sharedAllLibraries: u.sharedAllLibraries,
      libraryIds: u.libraryIds.flatMap((id) => {
        const library = mapped.get(id);
        return library ? [library.id] : [];
      }),
      ageRestriction: u.ageRestriction,
      labelsAllow: u.labelsAllow,
      labelsExclude: u.labelsExclude,
    }));
    report.users.push(...(await client.users(snapshot.source, options.mergeUsers, sent)));
    userPhase.advance(batch.length);
  }
  for (const user of snapshot.users) {
    const dropped = user.libraryIds.filter((id) => !mapped.has(id));
    if (!user.sharedAllLibraries && dropped.length > 0) {
      const names = dropped.map((id) => snapshot.libraries.find((l) => l.id === id)?.name ?? id).join(', ');
      report.userNotes.push({ user: user.username, note: `could see ${names}, which no Longbox library stands for` });
    }
  }
  const userIds = idsOf(report.users);
  userPhase.done(summarize(report.users));

  // ---- metadata edited by hand --------------------------------------------------------------------------------
  const series = snapshot.seriesMetadata.flatMap((m) => {
    const seriesId = seriesIdOf(m.seriesId);
    return seriesId ? [{ foreignId: m.seriesId, seriesId, locked: m.locked, sharingLabels: m.sharingLabels }] : [];
  });
  const books = snapshot.bookMetadata.flatMap((m) => {
    const bookId = bookIdOf(m.bookId);
    return bookId ? [{ foreignId: m.bookId, bookId, locked: m.locked }] : [];
  });
  const metadataPhase = phase('Metadata', series.length + books.length, log);
  for (const batch of batches(series, SIZES.metadata)) {
    report.metadata.push(...(await client.metadata(snapshot.source, batch, [])));
    metadataPhase.advance(batch.length);
  }
  for (const batch of batches(books, SIZES.metadata)) {
    report.metadata.push(...(await client.metadata(snapshot.source, [], batch)));
    metadataPhase.advance(batch.length);
  }
  metadataPhase.done(summarize(report.metadata));

  // ---- progress -----------------------------------------------------------------------------------------------
  const progressPhase = phase('Progress', snapshot.progress.length, log);
  const skip = (reason: string) => report.progress.skipped.set(reason, (report.progress.skipped.get(reason) ?? 0) + 1);
  const entries = snapshot.progress
    .flatMap((p) => {
      const userId = userIds.get(p.userId);
      const bookId = bookIdOf(p.bookId);
      if (!userId) skip('its user was not imported');
      else if (!bookId) skip('its book was not matched');
      return userId && bookId ? [{ ...p, userId, bookId }] : [];
    })
    // A user's rows together: each batch recounts the series of few users.
    .sort((a, b) => a.userId.localeCompare(b.userId));
  progressPhase.advance(snapshot.progress.length - entries.length);
  for (const batch of batches(entries, SIZES.progress)) {
    const counts: Counts = await client.progress(snapshot.source, batch);
    report.progress.written += counts.written;
    report.progress.unchanged += counts.unchanged;
    for (const skipped of counts.skipped) skip(skipped.reason);
    progressPhase.advance(batch.length);
  }
  progressPhase.done(`${report.progress.written} written, ${report.progress.unchanged} already there`);

  // ---- lists --------------------------------------------------------------------------------------------------
  const listPhase = phase('Lists', snapshot.lists.length, log);
  const lists = snapshot.lists.flatMap((list) => {
    const ownerId = list.ownerId === null ? null : (userIds.get(list.ownerId) ?? null);
    if (list.ownerId !== null && ownerId === null) {
      report.lists.push({ foreignId: list.id, id: null, outcome: 'skipped', reason: 'its owner was not imported' });
      return [];
    }
    const members = list.memberIds.flatMap((id) => {
      const found = list.kind === 'collection' ? seriesIdOf(id) : bookIdOf(id);
      return found ? [found] : [];
    });
    return [
      {
        foreignId: list.id,
        kind: list.kind,
        ownerId,
        name: list.name,
        summary: list.summary,
        ordered: list.ordered,
        memberIds: members,
        peerMembers: list.memberIds.length,
      },
    ];
  });
  listPhase.advance(snapshot.lists.length - lists.length);
  for (const batch of batches(lists, SIZES.lists)) {
    const outcomes = await client.lists(
      snapshot.source,
      batch.map(({ peerMembers: _p, ...list }) => list),
    );
    for (const outcome of outcomes) {
      const sent = batch.find((l) => l.foreignId === outcome.foreignId);
      const left = sent ? sent.peerMembers - sent.memberIds.length : 0;
      report.lists.push(
        left > 0 && outcome.outcome === 'created'
          ? { ...outcome, reason: `${left} member(s) not matched in Longbox were left out` }
          : outcome,
      );
    }
    listPhase.advance(batch.length);
  }
  listPhase.done(summarize(report.lists));

  // ---- want to read -------------------------------------------------------------------------------------------
  const wanted = snapshot.wantToRead.flatMap((w) => {
    const userId = userIds.get(w.userId);
    const seriesId = seriesIdOf(w.seriesId);
    return userId && seriesId ? [{ userId, seriesId, bookId: null }] : [];
  });
  report.wantToRead.skipped = snapshot.wantToRead.length - wanted.length;
  const wantPhase = phase('Want to read', wanted.length, log);
  for (const batch of batches(wanted, SIZES.wantToRead)) {
    const counts = await client.wantToRead(snapshot.source, batch);
    report.wantToRead.written += counts.written;
    report.wantToRead.unchanged += counts.unchanged;
    wantPhase.advance(batch.length);
  }
  wantPhase.done(`${report.wantToRead.written} added, ${report.wantToRead.unchanged} already there`);

  // ---- API keys -----------------------------------------------------------------------------------------------
  const keyPhase = phase('API keys', snapshot.apiKeys.length, log);
  const keys = snapshot.apiKeys.flatMap((key) => {
    const userId = userIds.get(key.userId);
    if (!userId)
      report.apiKeys.push({ foreignId: key.id, id: null, outcome: 'skipped', reason: 'its owner was not imported' });
    return userId ? [{ foreignId: key.id, userId, name: key.name, sha512: key.sha512, createdAt: key.createdAt }] : [];
  });
  for (const batch of batches(keys, SIZES.apiKeys)) {
    report.apiKeys.push(...(await client.apiKeys(snapshot.source, batch)));
    keyPhase.advance(batch.length);
  }
  keyPhase.done(summarize(report.apiKeys));

  // ---- covers -------------------------------------------------------------------------------------------------
  const coverPhase = phase('Covers', snapshot.covers.length, log);
  for (const cover of snapshot.covers) {
    coverPhase.advance(1);
    const id = cover.kind === 'series' ? seriesIdOf(cover.ownerId) : bookIdOf(cover.ownerId);
    const image = id ? await cover.read() : null;
    if (!id || !image) {
      report.covers.missing += 1;
      continue;
    }
    try {
      const outcome = await client.cover({ source: snapshot.source, foreignId: cover.id, kind: cover.kind, id }, image);
      if (outcome.outcome === 'unchanged') report.covers.unchanged += 1;
      else report.covers.imported += 1;
    } catch (error) {
      report.covers.failed.push({ id: cover.id, reason: (error as Error).message });
    }
  }
  coverPhase.done(
    `${report.covers.imported} imported, ${report.covers.unchanged} already there, ${report.covers.missing} without a file or a match`,
  );
  log(`${peerName} → Longbox: done`);
  report.requests = client.requests;
  return report;
}

function summarize(outcomes: readonly Outcome[]): string {
  const count = (kind: Outcome['outcome']) => outcomes.filter((o) => o.outcome === kind).length;
  return `${count('created')} created, ${count('merged')} merged, ${count('unchanged')} already there, ${count('skipped')} skipped`;
}

/** The final report: what moved, what did not and why, and what to do for what cannot move. */
export function formatReport(report: MigrationReport, snapshot: PeerSnapshot, options: MigrateOptions): string[] {
  const peerName = snapshot.kind === 'komga' ? 'Komga' : 'Kavita';
  const lines: string[] = ['', `Report (${peerName} schema ${snapshot.schemaVersion}, source ${snapshot.source})`];
  lines.push('Libraries:');
  for (const library of report.libraries) {
    lines.push(`  "${library.name}" → ${library.longbox ? `"${library.longbox}"` : `not mapped: ${library.reason}`}`);
  }
  const { books } = report;
  lines.push(
    `Books: ${books.total - books.unmatched.length} of ${books.total} matched (${books.matched.path} by path, ${books.matched.readerHash} by KOReader hash, ${books.matched.sizeAndName} by size and name); ${books.unmatched.length} unmatched`,
  );
  for (const book of books.unmatched) lines.push(`  unmatched: ${book.path}: ${book.reason}`);
  if (options.dryRun) return lines;
  const named = (outcomes: Outcome[], names: Map<string, string>, what: string) => {
    lines.push(`${what}: ${summarize(outcomes)}`);
    for (const o of outcomes) {
      if (o.reason) lines.push(`  ${o.outcome}: ${names.get(o.foreignId) ?? o.foreignId}: ${o.reason}`);
    }
  };
  named(report.users, report.userNames, 'Users');
  for (const { user, note } of report.userNotes) lines.push(`  note: ${user} ${note}`);
  const skippedProgress = [...report.progress.skipped].map(([reason, n]) => `${n} (${reason})`).join(', ');
  lines.push(
    `Progress: ${report.progress.written} written, ${report.progress.unchanged} already as recent in Longbox, ${[...report.progress.skipped.values()].reduce((a, b) => a + b, 0)} skipped${skippedProgress ? `: ${skippedProgress}` : ''}`,
  );
  named(report.lists, report.listNames, 'Collections and read lists');
  lines.push(
    `Want to read: ${report.wantToRead.written} added, ${report.wantToRead.unchanged} already there, ${report.wantToRead.skipped} not matched`,
  );
  named(report.metadata, new Map(), 'Metadata edited by hand');
  named(report.apiKeys, new Map(snapshot.apiKeys.map((k) => [k.id, k.name])), 'API keys');
  lines.push(
    `Covers: ${report.covers.imported} imported, ${report.covers.unchanged} already there, ${report.covers.missing} without a file or a match, ${report.covers.failed.length} failed`,
  );
  for (const failure of report.covers.failed) lines.push(`  failed: ${failure.id}: ${failure.reason}`);
  if (report.opdsKeys.length > 0) {
    const base = options.url.replace(/\/+$/, '');
    lines.push(
      `Kavita OPDS keys (their URLs, /api/opds/<key>, are not served by Longbox): ${report.opdsKeys.join(', ')}. ` +
        `Each makes an API key on Longbox's Account screen and points the OPDS app at ${base}/opds/v1.2/catalog ` +
        `(or ${base}/opds/v2.0/catalog), signing in as "api" with the key as password.`,
    );
  }
  if (snapshot.kind === 'komga') {
    lines.push(
      `Komga apps (Mihon, Komelia, Komga-KOReader): point them at ${options.url.replace(/\/+$/, '')}/komga; imported API keys and passwords keep working there.`,
    );
  }
  lines.push(`Requests made: ${report.requests}`);
  return lines;
}
