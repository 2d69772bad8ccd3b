/**
 * Which catalog rows a reader may see: the one hook of the catalog query layer (docs/ARCHITECTURE.md,
 * "Catalog query layer"; the rules: docs/DECISIONS.md §Organise and share).
 *
 * Every catalog read — lists, counts, full-text search, filters, term lists, on-deck, in-progress,
 * recently added/read/updated, next/previous, details by id, the lookups behind pages, covers and file
 * downloads, duplicates, KOReader's lookup by hash, for /api/v1, /opds, /komga and /koreader alike —
 * takes a `Viewer` and puts `visibleSeries` (or `visibleBooks`, built on it) into its WHERE clause.
 * The repositories' read methods take the viewer as a required parameter, and a viewer can only be made
 * by `viewerOf` from the signed-in caller, so a read that forgets it does not compile.
 *
 * A viewer carries what its caller may see, loaded with the credentials on every request (so a change
 * applies from the next request on): the libraries (the user's, narrowed by the API key used) and the
 * content restrictions (Komga's age restriction and sharing labels). The conditions are tests of a
 * series' library and id: the library against one JSON parameter, the id against sets of series ids
 * read from covering indexes (series by age rating, series by label) that SQLite builds once per
 * statement. Book queries test their own `series_id` and `library_id` the same way, so they never
 * visit a series row, and a viewer who sees everything adds nothing to a query.
 */
import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { forbidden } from '../lib/errors';

declare const viewerBrand: unique symbol;

/** Komga's age restriction: ALLOW_ONLY shows series rated at most `age`; EXCLUDE hides those rated `age` or more. */
export interface AgeRestriction {
  age: number;
  mode: 'ALLOW_ONLY' | 'EXCLUDE';
}

/** The content a viewer may not see (Komga `ContentRestrictions`). */
export interface ContentRestrictions {
  age: AgeRestriction | null;
  /** Label ids: with any, a series must carry one of them (or pass an ALLOW_ONLY age). Denied ones left out. */
  allowLabels: readonly string[];
  /** Label ids: a series carrying one is hidden. */
  denyLabels: readonly string[];
}

/** What a caller may see. */
export interface ViewerAccess {
  /** The library ids the caller sees; null: every library. */
  libraries: readonly string[] | null;
  /** Null: no content restriction (admins, users without one). */
  content: ContentRestrictions | null;
}

/** A caller who sees the whole catalog. */
export const WHOLE_CATALOG_ACCESS: ViewerAccess = { libraries: null, content: null };

/** The reader a catalog query answers for: their id (progress, want-to-read) and what they may see. */
export interface Viewer {
  readonly userId: string;
  readonly access: ViewerAccess;
  /**
   * Equal for viewers who see exactly the same rows: the key under which anything shared between
   * requests (an isolate cache of catalog rows) must be stored, so no viewer reads another's rows.
   */
  readonly scope: string;
  readonly [viewerBrand]: true;
}

/** What a viewer is made from: the signed-in caller (auth/principal.ts `Principal`). */
export interface ViewerSource {
  user: { id: string };
  access: ViewerAccess;
}

const viewers = new WeakMap<ViewerSource, Viewer>();

/**
 * The viewer of a signed-in caller: the only way to make one. Made once per caller object, i.e. once
 * per request (each request authenticates into a new principal, with its access read afresh).
 */
export function viewerOf(caller: ViewerSource): Viewer {
  let viewer = viewers.get(caller);
  if (!viewer) {
    viewer = { userId: caller.user.id, access: caller.access, scope: scopeOf(caller.access) } as Viewer;
    viewers.set(caller, viewer);
  }
  return viewer;
}

const sorted = (ids: readonly string[]) => [...ids].sort();

/** The same string for the same access, whoever holds it. */
function scopeOf(access: ViewerAccess): string {
  if (access.libraries === null && access.content === null) return 'all';
  const content = access.content && {
    age: access.content.age,
    allow: sorted(access.content.allowLabels),
    deny: sorted(access.content.denyLabels),
  };
  return JSON.stringify({ libraries: access.libraries && sorted(access.libraries), content });
}

/** The viewer sees every row: nothing needs adding to a query. */
export const seesEverything = (viewer: Viewer) => viewer.access.libraries === null && viewer.access.content === null;

/** No content restriction hides anything inside the libraries the viewer sees. */
export const seesAllContent = (viewer: Viewer) => viewer.access.content === null;

/** The viewer sees the library with this id (for rows already loaded, such as an event or a cached book). */
export const seesLibrary = (viewer: Viewer, libraryId: string) =>
  viewer.access.libraries === null || viewer.access.libraries.includes(libraryId);

/**
 * Work on a whole library — deleting it, scanning it, emptying its trash, its files, its tasks and scan
 * progress, which count everything in it — is for viewers without content restrictions: it would show or
 * touch series their restrictions hide (docs/DECISIONS.md §Organise and share). A 403, which says nothing
 * about what is hidden.
 */
export function assertSeesAllContent(viewer: Viewer, action: string): void {
  if (!seesAllContent(viewer)) {
    throw forbidden(`Your account has content restrictions, which hide part of the catalog: it cannot ${action}`);
  }
}

/**
 * Work on the bucket as a whole (creating a library, browsing the bucket) shows what lies in every library:
 * it is for viewers with no restriction at all. A 403.
 */
export function assertSeesEverything(viewer: Viewer, action: string): void {
  if (!seesEverything(viewer)) {
    throw forbidden(`Your account sees part of the catalog only: it cannot ${action}`);
  }
}

/** A condition that holds for every row: SQLite evaluates a constant term once, outside the loop. */
const EVERY_ROW = sql`TRUE`;
const NO_ROW = sql`FALSE`;

const jsonIds = (ids: readonly string[]) => sql`(SELECT value FROM json_each(${JSON.stringify(ids)}))`;

/** `column` names one of the viewer's libraries; EVERY_ROW when the viewer sees every library. */
function inLibraries(viewer: Viewer, column: SQLWrapper): SQL {
  const { libraries } = viewer.access;
  if (libraries === null) return EVERY_ROW;
  if (libraries.length === 0) return NO_ROW;
  // The unary `+` keeps the planner from reading the library index for this test: a viewer's libraries
  // are usually most of the catalog, and an index chosen for them would lose the one serving the order
  // (GET /books by title would then sort every row instead of stopping after a page).
  return sql`+${column} IN ${jsonIds(libraries)}`;
}

/** Series rated at most / at least `age` (series_age_rating_idx: a range of a covering index). */
const ratedAtMost = (age: number) => sql`SELECT rated.id FROM series AS rated WHERE rated.age_rating <= ${age}`;
const ratedAtLeast = (age: number) => sql`SELECT rated.id FROM series AS rated WHERE rated.age_rating >= ${age}`;
/** Series carrying one of the labels (series_sharing_labels_label_idx, index only). */
const labelled = (labelIds: readonly string[]) =>
  sql`SELECT labelled.series_id FROM series_sharing_labels AS labelled WHERE labelled.label_id IN ${jsonIds(labelIds)}`;

const union = (sets: SQL[]) => sql.join(sets, sql` UNION ALL `);

/** The content rule as sets of series ids: a series must be in one `allowed` set (when any) and in no `hidden` one. */
function contentSets(content: ContentRestrictions): { allowed: SQL[]; hidden: SQL[] } {
  const allowed: SQL[] = [];
  const hidden: SQL[] = [];
  if (content.age?.mode === 'ALLOW_ONLY') allowed.push(ratedAtMost(content.age.age));
  if (content.allowLabels.length > 0) allowed.push(labelled(content.allowLabels));
  if (content.age?.mode === 'EXCLUDE') hidden.push(ratedAtLeast(content.age.age));
  if (content.denyLabels.length > 0) hidden.push(labelled(content.denyLabels));
  return { allowed, hidden };
}

/**
 * Komga's rule (KomgaUser.isContentAllowed) as tests of a series id: allowed when its rating is at most
 * an ALLOW_ONLY age (a series without a rating fails) or it carries an allowed label — whichever of the
 * two is set; then hidden when an EXCLUDE age is at most its rating (no rating passes) or it carries a
 * denied label.
 */
function passesContent(viewer: Viewer, seriesId: SQLWrapper): SQL {
  const { content } = viewer.access;
  if (content === null) return EVERY_ROW;
  const { allowed, hidden } = contentSets(content);
  const tests = [
    ...(allowed.length > 0 ? [sql`${seriesId} IN (${union(allowed)})`] : []),
    ...(hidden.length > 0 ? [sql`${seriesId} NOT IN (${union(hidden)})`] : []),
  ];
  return tests.length > 0 ? sql.join(tests, sql` AND `) : EVERY_ROW;
}

function both(a: SQL, b: SQL): SQL {
  if (a === NO_ROW || b === NO_ROW) return NO_ROW;
  if (a === EVERY_ROW) return b;
  if (b === EVERY_ROW) return a;
  return sql`(${a} AND ${b})`;
}

/** The columns of a series row (the table, or an alias of it) that visibility may test. */
export interface SeriesColumns {
  id: SQLWrapper;
  libraryId: SQLWrapper;
}

/**
 * The series `s` is visible to the viewer: the condition every catalog query applies to each series it
 * reads, directly or through a book (visibleBooks).
 */
export function visibleSeries(viewer: Viewer, s: SeriesColumns): SQL {
  return both(inLibraries(viewer, s.libraryId), passesContent(viewer, s.id));
}

/**
 * The book is visible to the viewer: it belongs to a visible series. Books carry their library, so the
 * test reads the book's own `library_id` when the caller names it, else the library of its series.
 */
export function visibleBooks(viewer: Viewer, book: { seriesId: SQLWrapper; libraryId?: SQLWrapper }): SQL {
  return both(bookLibrary(viewer, book), passesContent(viewer, book.seriesId));
}

function bookLibrary(viewer: Viewer, book: { seriesId: SQLWrapper; libraryId?: SQLWrapper }): SQL {
  if (book.libraryId || viewer.access.libraries === null || viewer.access.libraries.length === 0) {
    return inLibraries(viewer, book.libraryId ?? sql`NULL`);
  }
  const ownerLibrary = inLibraries(viewer, sql.raw('owner.library_id'));
  return sql`${book.seriesId} IN (SELECT owner.id FROM series AS owner WHERE ${ownerLibrary})`;
}

/** A table whose live rows visibleCount counts (books, series). */
export interface CountedRows {
  /** `(SELECT count(*) …)` of the live rows where `where` holds (over the columns below). */
  count(where: SQL): SQL<number>;
  /**
   * `(SELECT count(*) …)` of the live rows of the series `seriesIds` (a subquery of ids) lists, read
   * from an index led by the series id: a range per series.
   */
  countInSeries(seriesIds: SQL): SQL<number>;
  /** The row's library and series (for a series: its id). */
  libraryId: SQLWrapper;
  seriesId: SQLWrapper;
}

/**
 * How many live rows of a table the viewer sees (within one library when `libraryId` is given), as one
 * scalar expression, for the total of an unfiltered list.
 *
 * Testing every row against the viewer's lists costs a probe per row, several times an admin's plain
 * count. Written instead as what the admin counts minus what the viewer may not see, it costs the
 * admin's count plus work in proportion to the hidden part: the rows of libraries not granted (an index
 * range per library) and the rows of the series the content rule hides (an index range per series),
 * less the rows counted twice (hidden series in libraries not granted). When the rule only allows some
 * series (an ALLOW_ONLY age, allowed labels), their rows are counted directly, a range per allowed series.
 */
export function visibleCount(viewer: Viewer, rows: CountedRows, libraryId?: string): SQL<number> {
  const { libraries, content } = viewer.access;
  if (libraries?.length === 0 || (libraryId !== undefined && !seesLibrary(viewer, libraryId))) return sql<number>`0`;
  const { allowed, hidden } = content === null ? { allowed: [], hidden: [] } : contentSets(content);
  const owner = sql.raw('counted_owner');
  // The series of the counted libraries (the viewer's, or the one asked for) among `ids`.
  const inCountedLibraries = (ids: SQL[]) =>
    sql`SELECT ${owner}.id FROM series AS ${owner} WHERE ${sql.join(ids, sql` AND `)}${
      libraryId !== undefined
        ? sql` AND ${owner}.library_id = ${libraryId}`
        : libraries === null
          ? sql``
          : sql` AND ${owner}.library_id IN ${jsonIds(libraries)}`
    }`;
  if (allowed.length > 0) {
    return rows.countInSeries(
      inCountedLibraries([
        sql`${owner}.id IN (${union(allowed)})`,
        ...(hidden.length > 0 ? [sql`${owner}.id NOT IN (${union(hidden)})`] : []),
      ]),
    );
  }
  const otherLibraries =
    libraries === null
      ? undefined
      : sql`${rows.libraryId} IN (SELECT other.id FROM libraries AS other WHERE other.id NOT IN ${jsonIds(libraries)})`;
  const base =
    libraryId !== undefined
      ? rows.count(sql`${rows.libraryId} = ${libraryId}`)
      : otherLibraries === undefined
        ? rows.count(EVERY_ROW)
        : sql`${rows.count(EVERY_ROW)} - ${rows.count(otherLibraries)}`;
  if (hidden.length === 0) return sql<number>`(${base})`;
  // The hidden series' rows in libraries not granted are in both subtracted counts: added back (the
  // unary `+` makes the library index drive that count, a range per library not granted).
  const hiddenIds = union(hidden);
  const hiddenRows =
    libraryId !== undefined
      ? rows.countInSeries(inCountedLibraries([sql`${owner}.id IN (${hiddenIds})`]))
      : otherLibraries === undefined
        ? rows.countInSeries(hiddenIds)
        : sql`${rows.countInSeries(hiddenIds)} - ${rows.count(sql`${otherLibraries} AND +${rows.seriesId} IN (${hiddenIds})`)}`;
  return sql<number>`(${base} - (${hiddenRows}))`;
}

/** The library whose id is `libraryId` (a column or a value) is one the viewer sees. */
export function visibleLibraries(viewer: Viewer, libraryId: SQLWrapper): SQL {
  return inLibraries(viewer, libraryId);
}
