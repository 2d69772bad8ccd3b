/**
 * Reading a Kavita `kavita.db` (docs/DECISIONS.md §Coming from Komga or Kavita): the tables and columns of
 * Kavita's EF Core model (Kareadita/Kavita `API/Entities/*`, `API/Data/Migrations/DataContextModelSnapshot.cs`;
 * the subset this reads is written out for the tests in test/support/peers/kavita-schema.ts). The schema version
 * is the newest migration in `__EFMigrationsHistory`.
 *
 * Kavita's unit of reading is the chapter, which may be several files: a chapter's pages read are laid over its
 * files in order (files before the one reached are complete). Collections and reading lists belong to a user
 * (a promoted one is shown to everyone, so it is shared here).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type {
  PeerBook,
  PeerCover,
  PeerLibrary,
  PeerList,
  PeerProgress,
  PeerSeriesMetadata,
  PeerSnapshot,
  PeerUser,
} from './peer';
import { assertPeerTables, peerSource, unknownSchemaVersion } from './peer-identity';
import { flag, PeerDatabase, text, utcInstant } from './sqlite';
import { uniqueUsername } from './usernames';

/** The Kavita schema versions (EF Core migrations) this importer reads, with the release that has each. */
export const KAVITA_KNOWN_VERSIONS: ReadonlyArray<{ version: string; kavita: string }> = [
  { version: '20240331172900_UserBasedCollections', kavita: '0.8.0' },
  { version: '20240418163829_ChapterSortOrderLock', kavita: '0.8.1' },
  { version: '20240503120147_SmartCollectionFields', kavita: '0.8.2' },
  { version: '20240510134030_SiteThemeFields', kavita: '0.8.2' },
  { version: '20240704144224_PersonFields', kavita: '0.8.3' },
  { version: '20240808100353_CoverPrimaryColors', kavita: '0.8.3' },
  { version: '20240811154857_ChapterMetadataLocks', kavita: '0.8.3' },
  { version: '20240813194728_VolumeCoverLocked', kavita: '0.8.3' },
  { version: '20240917180034_AvgReadingTimeFloat', kavita: '0.8.4' },
  { version: '20241011143144_PeopleOverhaulPart1', kavita: '0.8.4' },
  { version: '20241011152321_PeopleOverhaulPart2', kavita: '0.8.4' },
  { version: '20241011172428_PeopleOverhaulPart3', kavita: '0.8.4' },
];

/** Kavita's `AgeRating` enum (API/Entities/Enums/AgeRating.cs) as the minimum age Longbox tests. */
const AGE_OF_RATING: Record<number, number> = {
  2: 3, // Early Childhood
  3: 0, // Everyone
  4: 0, // G
  5: 10, // Everyone 10+
  6: 8, // PG
  7: 6, // Kids to Adults
  8: 13, // Teen
  9: 15, // MA15+
  10: 17, // Mature 17+
  11: 17, // M
  12: 18, // R18+
  13: 18, // Adults Only 18+
  14: 18, // X18+
};

/** Kavita's `PublicationStatus` enum as Longbox's status. */
const STATUS: Record<number, string> = { 0: 'ongoing', 1: 'hiatus', 2: 'ended', 3: 'abandoned', 4: 'ended' };

/** Kavita's `MangaFormat.Epub`. */
const EPUB = 3;
/** Kavita's `ServerSettingKey.InstallId`: names this installation. */
const INSTALL_ID_KEY = 10;

function schemaVersion(db: PeerDatabase): string {
  assertPeerTables(db, ['__EFMigrationsHistory', 'MangaFile'], 'config/kavita.db');
  const newest = text(
    db.get('SELECT MigrationId FROM "__EFMigrationsHistory" ORDER BY MigrationId DESC LIMIT 1')?.MigrationId,
  );
  if (!KAVITA_KNOWN_VERSIONS.some((k) => k.version === newest)) {
    const first = KAVITA_KNOWN_VERSIONS[0];
    const last = KAVITA_KNOWN_VERSIONS.at(-1);
    const known = `${first?.version} (Kavita ${first?.kavita}) to ${last?.version} (Kavita ${last?.kavita})`;
    throw unknownSchemaVersion(db, { seen: newest || '(none)', known, newer: newest > (last?.version ?? '') });
  }
  return newest;
}

export interface KavitaSource {
  /** The kavita.db to read (a backup's, extracted). */
  database: string;
  /** A backup's extracted copy may be opened for writing (SQLite folds its WAL into it); the real file never. */
  temporary: boolean;
  /** Where a locked cover's file is: the backup's `covers/`, else `covers/` beside kavita.db. */
  cover(name: string): Promise<Uint8Array | null>;
}

/** Covers beside a kavita.db (its config folder's `covers/`), for a database given directly. */
export const coversBeside = (database: string) => async (name: string) =>
  readFile(path.join(path.dirname(database), 'covers', path.basename(name))).catch(() => null);

export function readKavita(input: KavitaSource): PeerSnapshot {
  const db = PeerDatabase.open(input.database, 'Kavita', { writable: input.temporary });
  try {
    const version = schemaVersion(db);
    const installId = text(db.get('SELECT Value FROM ServerSetting WHERE Key = ?', INSTALL_ID_KEY)?.Value);
    const source = peerSource('kavita', installId);
    const folders = db.all('SELECT LibraryId, Path FROM FolderPath');
    const libraries: PeerLibrary[] = db.all('SELECT Id, Name FROM Library ORDER BY Name').map((row) => ({
      id: text(row.Id),
      name: text(row.Name),
      roots: folders.filter((f) => text(f.LibraryId) === text(row.Id)).map((f) => text(f.Path).replaceAll('\\', '/')),
    }));
    const hasHash = db.columns('MangaFile').has('KoreaderHash');
    const files = db.all(
      `SELECT f.Id, f.FilePath, f.Bytes, f.Pages, f.Format, f.ChapterId, ${hasHash ? 'f.KoreaderHash' : 'NULL'} AS KoreaderHash,
        v.SeriesId, s.LibraryId
       FROM MangaFile f JOIN Chapter c ON c.Id = f.ChapterId JOIN Volume v ON v.Id = c.VolumeId
       JOIN Series s ON s.Id = v.SeriesId ORDER BY f.ChapterId, f.FilePath, f.Id`,
    );
    const books: PeerBook[] = files.map((row) => {
      const file = text(row.FilePath).replaceAll('\\', '/');
      return {
        id: text(row.Id),
        libraryId: text(row.LibraryId),
        seriesId: text(row.SeriesId),
        path: file,
        fileName: file.split('/').pop() ?? file,
        fileSize: row.Bytes === null ? null : Number(row.Bytes),
        readerHash: text(row.KoreaderHash) || null,
      };
    });
    const filesOfChapter = new Map<string, Array<{ id: string; pages: number; format: number }>>();
    for (const row of files) {
      const chapter = text(row.ChapterId);
      filesOfChapter.set(chapter, [
        ...(filesOfChapter.get(chapter) ?? []),
        { id: text(row.Id), pages: Number(row.Pages), format: Number(row.Format) },
      ]);
    }
    return {
      kind: 'kavita',
      source,
      schemaVersion: version,
      libraries,
      books,
      users: users(db),
      progress: progress(db, filesOfChapter),
      lists: lists(db, filesOfChapter),
      wantToRead: db
        .all('SELECT AppUserId, SeriesId FROM AppUserWantToRead ORDER BY Id')
        .map((row) => ({ userId: text(row.AppUserId), seriesId: text(row.SeriesId) })),
      seriesMetadata: seriesMetadata(db),
      bookMetadata: [],
      covers: covers(db, filesOfChapter, input.cover),
      apiKeys: [],
    };
  } finally {
    db.close();
  }
}

function users(db: PeerDatabase): PeerUser[] {
  const roles = db.all('SELECT ur.UserId, r.Name FROM AspNetUserRoles ur JOIN AspNetRoles r ON r.Id = ur.RoleId');
  const hasLoginRole = db.get("SELECT 1 AS x FROM AspNetRoles WHERE Name = 'Login'") !== undefined;
  const access = db.all('SELECT AppUsersId, LibrariesId FROM AppUserLibrary');
  const taken = new Set<string>();
  return db
    .all(
      'SELECT Id, UserName, Email, PasswordHash, AgeRestriction, AgeRestrictionIncludeUnknowns, ApiKey FROM AspNetUsers ORDER BY Id',
    )
    .map((row) => {
      const id = text(row.Id);
      const names = roles.filter((r) => text(r.UserId) === id).map((r) => text(r.Name));
      const admin = names.includes('Admin');
      const notes: string[] = [];
      const wanted = text(row.UserName);
      const username = uniqueUsername(wanted, taken);
      if (username !== wanted) notes.push(`signs in as ${username} (Kavita name ${wanted})`);
      let email = text(row.Email).toLowerCase();
      if (!email) {
        email = `${username.toLowerCase()}@kavita.invalid`;
        notes.push(`had no e-mail address: ${email} stands in for one`);
      }
      const rating = Number(row.AgeRestriction);
      const age = AGE_OF_RATING[rating];
      if (rating > 0 && age !== undefined && flag(row.AgeRestrictionIncludeUnknowns)) {
        notes.push('Kavita let them see unrated series; Longbox’s age restriction hides series without a rating');
      }
      const active = !hasLoginRole || admin || names.includes('Login');
      if (!active) notes.push('could not sign in to Kavita (no Login role): imported disabled');
      return {
        id,
        username,
        email,
        role: admin ? 'admin' : 'reader',
        active,
        password: text(row.PasswordHash) ? { format: 'aspnet-identity', hash: text(row.PasswordHash) } : null,
        // Kavita's admins see every library; everyone else the libraries given to them.
        sharedAllLibraries: admin,
        libraryIds: access.filter((a) => text(a.AppUsersId) === id).map((a) => text(a.LibrariesId)),
        ageRestriction: rating > 0 && age !== undefined ? { age, restriction: 'ALLOW_ONLY' } : null,
        labelsAllow: [],
        labelsExclude: [],
        notes,
        opdsKey: text(row.ApiKey) !== '',
      };
    });
}

/** A chapter's progress laid over its files: files before the page reached are complete. */
function progress(
  db: PeerDatabase,
  filesOfChapter: Map<string, Array<{ id: string; pages: number; format: number }>>,
): PeerProgress[] {
  return db
    .all(
      'SELECT AppUserId, ChapterId, PagesRead, CreatedUtc, LastModifiedUtc FROM AppUserProgresses WHERE PagesRead > 0',
    )
    .flatMap((row) => {
      const files = filesOfChapter.get(text(row.ChapterId)) ?? [];
      const updatedAt = utcInstant(row.LastModifiedUtc);
      const base = {
        userId: text(row.AppUserId),
        startedAt: utcInstant(row.CreatedUtc, updatedAt),
        updatedAt,
        percentage: null,
        locator: null,
        device: null,
      };
      let left = Number(row.PagesRead);
      const entries: PeerProgress[] = [];
      for (const file of files) {
        if (left <= 0) break;
        const pages = Math.max(1, file.pages);
        const completed = left >= pages;
        const epub = file.format === EPUB;
        entries.push({
          ...base,
          bookId: file.id,
          page: Math.min(left, pages),
          completed,
          completedAt: completed ? updatedAt : null,
          // Kavita's book reader counts spine items: it is placed at the one it reached.
          epubSpineIndex: epub ? Math.min(left, pages - 1) : null,
        });
        left -= pages;
      }
      return entries;
    });
}

function lists(
  db: PeerDatabase,
  filesOfChapter: Map<string, Array<{ id: string; pages: number; format: number }>>,
): PeerList[] {
  const members = db.all(
    `SELECT cs.CollectionsId, cs.ItemsId FROM AppUserCollectionSeries cs JOIN Series s ON s.Id = cs.ItemsId
     ORDER BY s.SortName COLLATE NOCASE, s.Id`,
  );
  const items = db.all('SELECT ReadingListId, ChapterId FROM ReadingListItem ORDER BY ReadingListId, "Order", Id');
  return [
    ...db.all('SELECT Id, Title, Summary, Promoted, AppUserId FROM AppUserCollection ORDER BY Title').map(
      (row): PeerList => ({
        id: text(row.Id),
        kind: 'collection',
        ownerId: flag(row.Promoted) ? null : text(row.AppUserId),
        name: text(row.Title),
        summary: text(row.Summary) || null,
        ordered: false,
        memberIds: members.filter((m) => text(m.CollectionsId) === text(row.Id)).map((m) => text(m.ItemsId)),
      }),
    ),
    ...db.all('SELECT Id, Title, Summary, Promoted, AppUserId FROM ReadingList ORDER BY Title').map(
      (row): PeerList => ({
        id: text(row.Id),
        kind: 'readList',
        ownerId: flag(row.Promoted) ? null : text(row.AppUserId),
        name: text(row.Title),
        summary: text(row.Summary) || null,
        ordered: true,
        memberIds: items
          .filter((i) => text(i.ReadingListId) === text(row.Id))
          .flatMap((i) => (filesOfChapter.get(text(i.ChapterId)) ?? []).map((f) => f.id)),
      }),
    ),
  ];
}

function seriesMetadata(db: PeerDatabase): PeerSeriesMetadata[] {
  const genres = db.all(
    'SELECT gs.SeriesMetadatasId AS M, g.Title FROM GenreSeriesMetadata gs JOIN Genre g ON g.Id = gs.GenresId',
  );
  const tags = db.all(
    'SELECT st.SeriesMetadatasId AS M, t.Title FROM SeriesMetadataTag st JOIN Tag t ON t.Id = st.TagsId',
  );
  return db
    .all(`SELECT m.*, s.SortName, s.SortNameLocked FROM SeriesMetadata m JOIN Series s ON s.Id = m.SeriesId`)
    .flatMap((row) => {
      const locked: Record<string, unknown> = {};
      const of = (rows: Array<Record<string, unknown>>) =>
        rows.filter((r) => text(r.M) === text(row.Id)).map((r) => text(r.Title));
      if (flag(row.SortNameLocked)) locked.titleSort = text(row.SortName);
      if (flag(row.SummaryLocked)) locked.summary = text(row.Summary) || null;
      if (flag(row.LanguageLocked)) locked.language = text(row.Language) || null;
      if (flag(row.PublicationStatusLocked)) locked.status = STATUS[Number(row.PublicationStatus)] ?? null;
      if (flag(row.GenresLocked)) locked.genres = of(genres);
      if (flag(row.TagsLocked)) locked.tags = of(tags);
      const age = AGE_OF_RATING[Number(row.AgeRating)];
      if (flag(row.AgeRatingLocked) && age !== undefined) locked.ageRating = age;
      return Object.keys(locked).length === 0 ? [] : [{ seriesId: text(row.SeriesId), locked, sharingLabels: [] }];
    });
}

/** Covers a Kavita admin set (locked): a series' own, and a chapter's for its first file. */
function covers(
  db: PeerDatabase,
  filesOfChapter: Map<string, Array<{ id: string }>>,
  read: (name: string) => Promise<Uint8Array | null>,
): PeerCover[] {
  const series = db
    .all("SELECT Id, CoverImage FROM Series WHERE CoverImageLocked = 1 AND coalesce(CoverImage, '') <> ''")
    .map(
      (row): PeerCover => ({
        id: `series-${text(row.Id)}`,
        kind: 'series',
        ownerId: text(row.Id),
        read: () => read(text(row.CoverImage)),
      }),
    );
  const chapters = db
    .all("SELECT Id, CoverImage FROM Chapter WHERE CoverImageLocked = 1 AND coalesce(CoverImage, '') <> ''")
    .flatMap((row): PeerCover[] => {
      const first = filesOfChapter.get(text(row.Id))?.[0];
      return first
        ? [{ id: `chapter-${text(row.Id)}`, kind: 'book', ownerId: first.id, read: () => read(text(row.CoverImage)) }]
        : [];
    });
  return [...series, ...chapters];
}
