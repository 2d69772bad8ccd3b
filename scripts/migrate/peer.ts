/**
 * What the migrate command reads from a peer's database, in one shape for Komga and Kavita
 * (docs/DECISIONS.md §Coming from Komga or Kavita). Every id is the peer's own, as text.
 */

export type PeerKind = 'komga' | 'kavita';

export interface PeerLibrary {
  id: string;
  name: string;
  /** The library's root folders (Komga one, Kavita one or more), as absolute paths with `/` separators. */
  roots: string[];
}

/** One book file: Komga's BOOK, Kavita's MangaFile. */
export interface PeerBook {
  id: string;
  libraryId: string;
  seriesId: string;
  /** The absolute path, `/` separators. */
  path: string;
  fileName: string;
  fileSize: number | null;
  /** KOReader's partial MD5 (Komga FILE_HASH_KOREADER, Kavita KoreaderHash), when the peer computed it. */
  readerHash: string | null;
}

export interface PeerUser {
  id: string;
  username: string;
  email: string;
  role: 'admin' | 'reader';
  active: boolean;
  password: { format: 'bcrypt' | 'aspnet-identity'; hash: string } | null;
  sharedAllLibraries: boolean;
  libraryIds: string[];
  ageRestriction: { age: number; restriction: 'ALLOW_ONLY' | 'EXCLUDE' } | null;
  labelsAllow: string[];
  labelsExclude: string[];
  /** What could not be carried over as it was (told in the report). */
  notes: string[];
  /** Kavita: the user had an OPDS key (its URL is not served by Longbox). */
  opdsKey: boolean;
}

export interface PeerProgress {
  userId: string;
  bookId: string;
  page: number;
  completed: boolean;
  startedAt: string;
  updatedAt: string;
  completedAt: string | null;
  percentage: number | null;
  locator: string | null;
  epubSpineIndex: number | null;
  device: { id: string; name: string } | null;
}

export interface PeerList {
  id: string;
  kind: 'collection' | 'readList';
  /** The user whose list it is (Kavita); null: shared with everyone (Komga's, Kavita's promoted ones). */
  ownerId: string | null;
  name: string;
  summary: string | null;
  ordered: boolean;
  /** Peer series ids (collections) or book ids (read lists), in order. */
  memberIds: string[];
}

export interface PeerWantToRead {
  userId: string;
  seriesId: string;
}

/** Metadata the peer kept locked (edited by hand), in Longbox's field names. */
export interface PeerSeriesMetadata {
  seriesId: string;
  locked: Record<string, unknown>;
  sharingLabels: string[];
}

export interface PeerBookMetadata {
  bookId: string;
  locked: Record<string, unknown>;
}

export interface PeerCover {
  id: string;
  kind: 'series' | 'book';
  ownerId: string;
  /** The image, or null when the file is not at hand (Kavita keeps covers beside its database). */
  read(): Promise<Uint8Array | null>;
}

export interface PeerApiKey {
  id: string;
  userId: string;
  name: string;
  sha512: string;
  createdAt: string;
}

export interface PeerSnapshot {
  kind: PeerKind;
  /** The peer instance, stable across runs: `komga:<fingerprint>`, `kavita:<install id>`. */
  source: string;
  /** The schema version the database has. */
  schemaVersion: string;
  libraries: PeerLibrary[];
  books: PeerBook[];
  users: PeerUser[];
  progress: PeerProgress[];
  lists: PeerList[];
  wantToRead: PeerWantToRead[];
  seriesMetadata: PeerSeriesMetadata[];
  bookMetadata: PeerBookMetadata[];
  covers: PeerCover[];
  apiKeys: PeerApiKey[];
}

/** A problem with the input that stops the migration before anything is sent (exit code 1, the message alone). */
export class MigrationInputError extends Error {}
