/**
 * A Kavita `kavita.db` for the tests: the tables and columns the migrate command reads, as Kavita's EF Core model
 * lays them out on SQLite (Kareadita/Kavita, v0.8.x: `API/Data/Migrations/DataContextModelSnapshot.cs` for the
 * table and column names and types; the entities each comes from are named beside it). Kavita's other tables
 * and columns are left out: the importer never reads them. Node only (`node:sqlite`).
 */
import { DatabaseSync } from 'node:sqlite';

/** The newest migration of the schema written here (Kavita 0.8.4): what `__EFMigrationsHistory` names. */
export const KAVITA_SCHEMA_VERSION = '20241011172428_PeopleOverhaulPart3';

const SCHEMA = `
-- Microsoft.EntityFrameworkCore migrations history.
CREATE TABLE "__EFMigrationsHistory" ("MigrationId" TEXT NOT NULL PRIMARY KEY, "ProductVersion" TEXT NOT NULL);
-- API/Entities/ServerSetting.cs (Key: API/Entities/Enums/ServerSettingKey.cs, InstallId = 10).
CREATE TABLE "ServerSetting" ("Key" INTEGER NOT NULL PRIMARY KEY, "RowVersion" INTEGER NOT NULL, "Value" TEXT NULL);
-- API/Entities/AppUser.cs (an IdentityUser<int>: ASP.NET Identity's columns) and AppRole.cs / AppUserRole.cs.
CREATE TABLE "AspNetUsers" (
  "Id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "UserName" TEXT NULL, "NormalizedUserName" TEXT NULL,
  "Email" TEXT NULL, "NormalizedEmail" TEXT NULL, "EmailConfirmed" INTEGER NOT NULL, "PasswordHash" TEXT NULL,
  "ApiKey" TEXT NULL, "AgeRestriction" INTEGER NOT NULL, "AgeRestrictionIncludeUnknowns" INTEGER NOT NULL,
  "Created" TEXT NOT NULL, "CreatedUtc" TEXT NOT NULL, "RowVersion" INTEGER NOT NULL);
CREATE TABLE "AspNetRoles" ("Id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "Name" TEXT NULL, "NormalizedName" TEXT NULL);
CREATE TABLE "AspNetUserRoles" ("UserId" INTEGER NOT NULL, "RoleId" INTEGER NOT NULL, PRIMARY KEY ("UserId", "RoleId"));
-- API/Entities/Library.cs, FolderPath.cs; the AppUser ↔ Library many-to-many.
CREATE TABLE "Library" ("Id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "Name" TEXT NOT NULL, "Type" INTEGER NOT NULL);
CREATE TABLE "FolderPath" ("Id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "Path" TEXT NOT NULL, "LibraryId" INTEGER NOT NULL);
CREATE TABLE "AppUserLibrary" ("AppUsersId" INTEGER NOT NULL, "LibrariesId" INTEGER NOT NULL, PRIMARY KEY ("AppUsersId", "LibrariesId"));
-- API/Entities/Series.cs, Volume.cs, Chapter.cs, MangaFile.cs (Format: API/Entities/Enums/MangaFormat.cs).
CREATE TABLE "Series" (
  "Id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "Name" TEXT NOT NULL, "SortName" TEXT NOT NULL,
  "SortNameLocked" INTEGER NOT NULL DEFAULT 0, "CoverImage" TEXT NULL, "CoverImageLocked" INTEGER NOT NULL DEFAULT 0,
  "FolderPath" TEXT NULL, "LibraryId" INTEGER NOT NULL);
CREATE TABLE "Volume" ("Id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "Name" TEXT NOT NULL, "MinNumber" REAL NOT NULL, "SeriesId" INTEGER NOT NULL);
CREATE TABLE "Chapter" (
  "Id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "Range" TEXT NOT NULL, "Pages" INTEGER NOT NULL,
  "SortOrder" REAL NOT NULL, "IsSpecial" INTEGER NOT NULL DEFAULT 0, "CoverImage" TEXT NULL,
  "CoverImageLocked" INTEGER NOT NULL DEFAULT 0, "VolumeId" INTEGER NOT NULL);
CREATE TABLE "MangaFile" (
  "Id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "FileName" TEXT NULL, "FilePath" TEXT NOT NULL,
  "Pages" INTEGER NOT NULL, "Format" INTEGER NOT NULL, "Bytes" INTEGER NOT NULL, "Extension" TEXT NULL,
  "KoreaderHash" TEXT NULL, "ChapterId" INTEGER NOT NULL);
-- API/Entities/Metadata/SeriesMetadata.cs with its genres and tags (Genre.cs, Tag.cs, many-to-many).
CREATE TABLE "SeriesMetadata" (
  "Id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "SeriesId" INTEGER NOT NULL, "Summary" TEXT NOT NULL DEFAULT '',
  "SummaryLocked" INTEGER NOT NULL DEFAULT 0, "AgeRating" INTEGER NOT NULL DEFAULT 0, "AgeRatingLocked" INTEGER NOT NULL DEFAULT 0,
  "Language" TEXT NOT NULL DEFAULT '', "LanguageLocked" INTEGER NOT NULL DEFAULT 0, "PublicationStatus" INTEGER NOT NULL DEFAULT 0,
  "PublicationStatusLocked" INTEGER NOT NULL DEFAULT 0, "GenresLocked" INTEGER NOT NULL DEFAULT 0, "TagsLocked" INTEGER NOT NULL DEFAULT 0);
CREATE TABLE "Genre" ("Id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "Title" TEXT NULL, "NormalizedTitle" TEXT NULL);
CREATE TABLE "GenreSeriesMetadata" ("GenresId" INTEGER NOT NULL, "SeriesMetadatasId" INTEGER NOT NULL, PRIMARY KEY ("GenresId", "SeriesMetadatasId"));
CREATE TABLE "Tag" ("Id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "Title" TEXT NULL, "NormalizedTitle" TEXT NULL);
CREATE TABLE "SeriesMetadataTag" ("SeriesMetadatasId" INTEGER NOT NULL, "TagsId" INTEGER NOT NULL, PRIMARY KEY ("SeriesMetadatasId", "TagsId"));
-- API/Entities/AppUserProgress.cs (a chapter's pages read, per user).
CREATE TABLE "AppUserProgresses" (
  "Id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "PagesRead" INTEGER NOT NULL, "VolumeId" INTEGER NOT NULL,
  "SeriesId" INTEGER NOT NULL, "LibraryId" INTEGER NOT NULL, "ChapterId" INTEGER NOT NULL, "BookScrollId" TEXT NULL,
  "Created" TEXT NOT NULL, "LastModified" TEXT NOT NULL, "CreatedUtc" TEXT NOT NULL, "LastModifiedUtc" TEXT NOT NULL,
  "AppUserId" INTEGER NOT NULL);
-- API/Entities/AppUserCollection.cs (a user's collection of series; the many-to-many AppUserCollectionSeries).
CREATE TABLE "AppUserCollection" (
  "Id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "Title" TEXT NOT NULL, "NormalizedTitle" TEXT NOT NULL,
  "Summary" TEXT NULL, "Promoted" INTEGER NOT NULL, "AgeRating" INTEGER NOT NULL, "AppUserId" INTEGER NOT NULL);
CREATE TABLE "AppUserCollectionSeries" ("CollectionsId" INTEGER NOT NULL, "ItemsId" INTEGER NOT NULL, PRIMARY KEY ("CollectionsId", "ItemsId"));
-- API/Entities/ReadingList.cs, ReadingListItem.cs (a user's ordered list of chapters).
CREATE TABLE "ReadingList" (
  "Id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "Title" TEXT NOT NULL, "NormalizedTitle" TEXT NULL, "Summary" TEXT NULL,
  "Promoted" INTEGER NOT NULL, "AgeRating" INTEGER NOT NULL, "AppUserId" INTEGER NOT NULL);
CREATE TABLE "ReadingListItem" (
  "Id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "SeriesId" INTEGER NOT NULL, "VolumeId" INTEGER NOT NULL,
  "ChapterId" INTEGER NOT NULL, "Order" INTEGER NOT NULL, "ReadingListId" INTEGER NOT NULL);
-- API/Entities/AppUserWantToRead.cs.
CREATE TABLE "AppUserWantToRead" ("Id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT, "SeriesId" INTEGER NOT NULL, "AppUserId" INTEGER NOT NULL);
`;

/** Creates a Kavita database at `file` whose history names `version` (default: the schema written here). */
export function createKavitaDatabase(
  file: string,
  { version = KAVITA_SCHEMA_VERSION, installId = 'f3c2a8d1-0b7e-4f43-9b21-6d2b4e9f0a11' } = {},
): DatabaseSync {
  const db = new DatabaseSync(file);
  db.exec(SCHEMA);
  db.prepare('INSERT INTO "__EFMigrationsHistory" VALUES (?, ?)').run('20240331172900_UserBasedCollections', '8.0.3');
  if (version !== '20240331172900_UserBasedCollections') {
    db.prepare('INSERT INTO "__EFMigrationsHistory" VALUES (?, ?)').run(version, '8.0.8');
  }
  db.prepare('INSERT INTO "ServerSetting" VALUES (10, 0, ?)').run(installId);
  for (const role of ['Admin', 'Pleb', 'Download', 'Change Password', 'Bookmark', 'Change Restriction', 'Login']) {
    db.prepare('INSERT INTO "AspNetRoles" ("Name", "NormalizedName") VALUES (?, ?)').run(role, role.toUpperCase());
  }
  return db;
}
