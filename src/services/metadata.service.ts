/**
 * Editing series and book metadata (issue 18; DECISIONS.md §Organise and share): values and their locks.
 * `/api/v1` edits lock every field they set; `/komga` sets locks as sent (Komf relies on them). Turning a
 * book's lock off puts the file's value back at once (from books.file_metadata, which every analysis
 * keeps), and a series' derived values are computed again; scans never write a locked field.
 * Each edit emits entity events; the search rows are rewritten in the same batch.
 */
import type { Principal } from '../auth/principal';
import type { DomainEvent, EventPublisher } from '../events/events';
import { notFound } from '../lib/errors';
import type {
  BookChanges,
  BookEditWrite,
  BookTerms,
  CatalogWriter,
  SeriesChanges,
  SeriesEditWrite,
  Statement,
  TermKind,
} from '../repositories/catalog-writer.repository';
import type {
  BookMetadataRow,
  MetadataRepository,
  SeriesMetadataRow,
  Terms,
} from '../repositories/metadata.repository';
import type { BookLockedColumn } from '../repositories/metadata-sql';
import { type Viewer, viewerOf } from '../repositories/visibility';
import {
  BOOK_EDITABLE_FIELDS,
  type BookEditableField,
  type BookMetadataDto,
  type BookMetadataPatch,
  type BookLocksUpdate,
  SERIES_EDITABLE_FIELDS,
  type SeriesEditableField,
  type SeriesFieldsPatch,
  type SeriesLocksUpdate,
  type SeriesMetadataDto,
  type SeriesMetadataPatch,
} from '../schemas/metadata.schema';
import { sortTitle } from '../scanning/series-grouping';
import type { SeriesContentEdit, SharingTagsService } from './sharing-tags.service';

/** API fields whose values are term rows, and their kind. */
const TERM_FIELDS = {
  genres: 'genre',
  tags: 'tag',
  characters: 'character',
  teams: 'team',
  locations: 'location',
} as const satisfies Record<string, TermKind>;
type TermField = keyof typeof TERM_FIELDS;
const isTermField = (field: string): field is TermField => field in TERM_FIELDS;

/** An edit as the service applies it: values to set, and locks to set (true or false). */
export interface MetadataEdit<V, F extends string> {
  values: Partial<V>;
  locks: Partial<Record<F, boolean>>;
}
export type SeriesEdit = MetadataEdit<SeriesFieldsPatch, SeriesEditableField>;
export type BookEdit = MetadataEdit<BookMetadataPatch, BookEditableField>;

const lockColumn = (field: string) => `${field}Lock`;
const lockAll = <F extends string>(values: object) =>
  Object.fromEntries(Object.keys(values).map((f) => [f, true])) as Partial<Record<F, boolean>>;

function locksOf<F extends string>(fields: readonly F[], row: Record<string, unknown>): Record<F, boolean> {
  return Object.fromEntries(fields.map((f) => [f, Boolean(row[lockColumn(f)])])) as Record<F, boolean>;
}

function toSeriesMetadata(row: SeriesMetadataRow, terms: Terms): SeriesMetadataDto {
  return {
    seriesId: row.id,
    title: row.title,
    titleSort: row.titleSort,
    summary: row.summary,
    publisher: row.publisher,
    imprint: row.imprint,
    year: row.year,
    language: row.language,
    status: row.status as SeriesMetadataDto['status'],
    readingDirection: row.readingDirection,
    totalBookCount: row.totalBookCount,
    authors: row.authors,
    links: row.links,
    alternateTitles: row.alternateTitles,
    genres: terms.genre,
    tags: terms.tag,
    characters: terms.character,
    teams: terms.team,
    locations: terms.location,
    ageRating: row.ageRating,
    locks: { ...locksOf(SERIES_EDITABLE_FIELDS, row), ageRating: row.ageRatingLock },
    updatedAt: row.updatedAt,
  };
}

/**
 * The age-rating part of an /api/v1 edit as the sharing service takes it (the one implementation Komga's
 * PATCH uses too): a rating set is locked, `null` unlocks it (the books rate the series again).
 */
function ratingEdit(value: number | null | undefined, lock: boolean | undefined): SeriesContentEdit | undefined {
  if (value !== undefined) return value === null ? { ageRatingLock: false } : { ageRating: value, ageRatingLock: true };
  return lock === undefined ? undefined : { ageRatingLock: lock };
}

function toBookMetadata(row: BookMetadataRow, terms: Terms): BookMetadataDto {
  return {
    bookId: row.id,
    seriesId: row.seriesId,
    title: row.title,
    titleSort: row.titleSort,
    summary: row.summary,
    number: row.number,
    numberSort: row.numberSort,
    volume: row.volume,
    chapter: row.chapter,
    year: row.year,
    month: row.month,
    day: row.day,
    publisher: row.publisher,
    imprint: row.imprint,
    language: row.language,
    authors: row.authors,
    isbn: row.isbn,
    format: row.format,
    count: row.count,
    links: row.links,
    genres: terms.genre,
    tags: terms.tag,
    characters: terms.character,
    teams: terms.team,
    locations: terms.location,
    locks: locksOf(BOOK_EDITABLE_FIELDS, row),
    updatedAt: row.updatedAt,
  };
}

/** The locks of an edit that differ from the stored ones (a lock sent as it already is changes nothing). */
function changedLocks<F extends string>(locks: Partial<Record<F, boolean>>, row: object): Partial<Record<F, boolean>> {
  const stored = row as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(locks).filter(([field, locked]) => locked !== undefined && stored[lockColumn(field)] !== locked),
  ) as Partial<Record<F, boolean>>;
}

/** Splits an edit into column changes (values and locks) and replaced terms. */
function changesOf(edit: { values: object; locks: object }) {
  const changes: Record<string, unknown> = {};
  const terms: Partial<BookTerms> = {};
  for (const [field, value] of Object.entries(edit.values)) {
    if (value === undefined) continue;
    if (isTermField(field)) terms[TERM_FIELDS[field]] = value as string[];
    else changes[field] = value;
  }
  for (const [field, locked] of Object.entries(edit.locks)) {
    if (locked !== undefined) changes[lockColumn(field)] = locked;
  }
  // An edited title brings its sort title along unless one was given (or the sort title is locked).
  if (typeof changes.title === 'string' && !('titleSort' in changes)) changes.titleSort = sortTitle(changes.title);
  return { changes, terms };
}

/**
 * What an edit writes to one book, or null when it changes nothing. A lock turned off puts the file's value
 * back unless a value is given for it (the sort title too, with the title, unless its own lock stays on).
 */
function bookEditWrite(row: BookMetadataRow, edit: BookEdit, now: string): BookEditWrite | null {
  const { changes, terms } = changesOf({ values: edit.values, locks: changedLocks(edit.locks, row) });
  const unlocked = (Object.entries(edit.locks) as Array<[BookEditableField, boolean | undefined]>)
    .filter(([field, locked]) => locked === false && row[lockColumn(field) as keyof BookMetadataRow] === true)
    .map(([field]) => field);
  const restore = {
    fields: unlocked.filter((f): f is BookLockedColumn => !isTermField(f) && !(f in edit.values)),
    kinds: unlocked
      .filter(isTermField)
      .filter((f) => !(f in edit.values))
      .map((f) => TERM_FIELDS[f]),
  };
  const sortStaysLocked = edit.locks.titleSort ?? row.titleSortLock;
  if (restore.fields.includes('title') && !sortStaysLocked && !restore.fields.includes('titleSort'))
    restore.fields.push('titleSort');
  if (Object.keys(changes).length === 0 && Object.keys(terms).length === 0) return null;
  return { bookId: row.id, changes: { ...(changes as BookChanges), updatedAt: now }, terms, restore };
}

/** The series edits that change something, and the events announcing each changed (or re-rated) series. */
function seriesEditPlan(
  edits: ReadonlyArray<{ row: SeriesMetadataRow; edit: SeriesEdit; rated: boolean }>,
  now: string,
): { writes: SeriesEditWrite[]; events: DomainEvent[] } {
  const writes: SeriesEditWrite[] = [];
  const events: DomainEvent[] = [];
  for (const { row, edit, rated } of edits) {
    const { changes, terms } = changesOf({ values: edit.values, locks: changedLocks(edit.locks, row) });
    const stored = row as unknown as Record<string, unknown>;
    const rederive = Object.entries(edit.locks).some(
      ([field, locked]) => locked === false && stored[lockColumn(field)],
    );
    const changesSomething = Object.keys(changes).length > 0 || Object.keys(terms).length > 0;
    if (changesSomething) {
      writes.push({
        seriesId: row.id,
        changes: { ...(changes as SeriesChanges), updatedAt: now },
        terms: terms as Partial<Record<'genre' | 'tag', string[]>>,
        rederive,
      });
    }
    if (rated || changesSomething)
      events.push({ type: 'series_updated', series_id: row.id, library_id: row.libraryId });
  }
  return { writes, events };
}

/** The book edits that change something, by series, with the events announcing each book and then its series. */
function bookEditPlan(edits: ReadonlyArray<{ row: BookMetadataRow; edit: BookEdit }>, now: string) {
  const bySeries = new Map<string, { writes: BookEditWrite[]; events: DomainEvent[] }>();
  for (const { row, edit } of edits) {
    const write = bookEditWrite(row, edit, now);
    if (!write) continue;
    const group = bySeries.get(row.seriesId) ?? { writes: [], events: [] };
    group.writes.push(write);
    group.events.push({
      type: 'book_updated',
      book_id: write.bookId,
      series_id: row.seriesId,
      library_id: row.libraryId,
    });
    bySeries.set(row.seriesId, group);
  }
  for (const [seriesId, group] of bySeries) {
    const first = group.events[0] as { library_id: string };
    group.events.push({ type: 'series_updated', series_id: seriesId, library_id: first.library_id });
  }
  return bySeries;
}

export class MetadataService {
  constructor(
    private readonly metadata: MetadataRepository,
    private readonly writer: CatalogWriter,
    private readonly events: EventPublisher,
    private readonly content: Pick<SharingTagsService, 'editSeriesContent'>,
  ) {}

  async seriesMetadata(viewer: Viewer, id: string): Promise<SeriesMetadataDto> {
    const found = await this.metadata.series(viewer, id);
    if (!found) throw notFound('Series');
    return toSeriesMetadata(found.row, found.terms);
  }

  async bookMetadata(viewer: Viewer, id: string): Promise<BookMetadataDto> {
    const found = await this.metadata.book(viewer, id);
    if (!found) throw notFound('Book');
    return toBookMetadata(found.row, found.terms);
  }

  /**
   * PATCH /series/{id}/metadata: sets the fields given and locks each of them. The age rating goes first,
   * through the sharing service (a real change needs UsersWrite: its 403 leaves the other fields unwritten).
   */
  async patchSeries(actor: Principal, id: string, { ageRating, ...patch }: SeriesMetadataPatch) {
    const rated = await this.editRating(actor, id, ratingEdit(ageRating, undefined));
    return this.editSeries(viewerOf(actor), id, { values: patch, locks: lockAll(patch) }, rated);
  }

  /** PUT /series/{id}/metadata/locks (the age rating's lock through the sharing service, as above). */
  async setSeriesLocks(actor: Principal, id: string, { ageRating, ...locks }: SeriesLocksUpdate) {
    const rated = await this.editRating(actor, id, ratingEdit(undefined, ageRating));
    return this.editSeries(viewerOf(actor), id, { values: {}, locks }, rated);
  }

  private async editRating(actor: Principal, id: string, edit: SeriesContentEdit | undefined): Promise<boolean> {
    return edit === undefined ? false : this.content.editSeriesContent(actor, id, edit);
  }

  patchBook(viewer: Viewer, id: string, patch: BookMetadataPatch) {
    return this.editBook(viewer, id, { values: patch, locks: lockAll(patch) });
  }

  setBookLocks(viewer: Viewer, id: string, locks: BookLocksUpdate) {
    return this.editBook(viewer, id, { values: {}, locks });
  }

  /**
   * Any edit of a series (values and locks as decided by the caller). When a lock is turned off, the unlocked
   * derived values are computed again from the books in the same batch (unlocking the summary brings back
   * the first book's); otherwise values set stay until the next scan of the series' books. `rated`: its age
   * rating was just written (by the sharing service), so the series changed even if nothing else does.
   */
  async editSeries(viewer: Viewer, id: string, edit: SeriesEdit, rated = false): Promise<SeriesMetadataDto> {
    await this.applySeriesEdit(viewer, id, edit, rated);
    return this.seriesMetadata(viewer, id);
  }

  /** `editSeries` without reading the result back (Komga's PATCH answers 204). */
  async applySeriesEdit(viewer: Viewer, id: string, edit: SeriesEdit, rated = false): Promise<void> {
    const found = await this.metadata.series(viewer, id);
    if (!found) throw notFound('Series');
    await this.writeSeriesEdits([{ ...found, edit, rated }]);
  }

  /**
   * Any edit of a book. A lock turned off puts the file's value back (the sort title too, with the title,
   * unless its own lock stays on); the series' credits follow in the same batch (its other derived values at
   * its next scan).
   */
  async editBook(viewer: Viewer, id: string, edit: BookEdit): Promise<BookMetadataDto> {
    const found = await this.metadata.book(viewer, id);
    if (!found) throw notFound('Book');
    const written = await this.writeBookEdits([{ ...found, edit }]);
    return written === 0 ? toBookMetadata(found.row, found.terms) : this.bookMetadata(viewer, id);
  }

  /**
   * Bulk variants: the same edit on each visible series or book (the others are skipped and not counted).
   * The rows are read in one batch and written in a few; a bulk book edit refreshes each touched series'
   * credits once, not once per book.
   */
  async bulkSeries(viewer: Viewer, ids: string[], edit: (id: string) => SeriesEdit) {
    const found = await this.metadata.seriesOfEach(viewer, [...new Set(ids)]);
    await this.writeSeriesEdits([...found.values()].map((one) => ({ ...one, edit: edit(one.row.id), rated: false })));
    return { updatedCount: found.size, message: `Updated ${found.size} series` };
  }

  async bulkBooks(viewer: Viewer, ids: string[], edit: (id: string) => BookEdit) {
    const found = await this.metadata.booksOfEach(viewer, [...new Set(ids)]);
    await this.writeBookEdits([...found.values()].map((one) => ({ ...one, edit: edit(one.row.id) })));
    return { updatedCount: found.size, message: `Updated ${found.size} books` };
  }

  /** The live series and books of these ids the viewer sees, with their terms, read at the same time. */
  async seriesAndBooks(viewer: Viewer, seriesIds: readonly string[], bookIds: readonly string[]) {
    const [series, books] = await Promise.all([
      this.metadata.seriesOfEach(viewer, [...new Set(seriesIds)]),
      this.metadata.booksOfEach(viewer, [...new Set(bookIds)]),
    ]);
    return { series, books };
  }

  /**
   * `bulkSeries` and `bulkBooks` of rows `seriesAndBooks` read, as statements for a caller's own batch (a
   * migration's, with what it remembers): `announce` once they ran.
   */
  editStatements(
    series: ReadonlyArray<{ row: SeriesMetadataRow; edit: SeriesEdit }>,
    books: ReadonlyArray<{ row: BookMetadataRow; edit: BookEdit }>,
  ): { statements: Statement[]; announce: () => void } {
    const now = new Date().toISOString();
    const seriesPlan = seriesEditPlan(
      series.map((one) => ({ ...one, rated: false })),
      now,
    );
    const bookPlan = bookEditPlan(books, now);
    return {
      statements: this.writer.editStatements(
        seriesPlan.writes,
        [...bookPlan].map(([seriesId, group]) => ({ seriesId, edits: group.writes })),
        now,
      ),
      announce: () => this.events.publish(...seriesPlan.events, ...[...bookPlan.values()].flatMap((g) => g.events)),
    };
  }

  /** Writes the series edits that change something (a few batches in all) and announces each changed series. */
  private async writeSeriesEdits(
    edits: Array<{ row: SeriesMetadataRow; edit: SeriesEdit; rated: boolean }>,
  ): Promise<void> {
    const now = new Date().toISOString();
    const { writes, events } = seriesEditPlan(edits, now);
    await this.writer.editSeries(writes, now);
    this.events.publish(...events);
  }

  /**
   * Writes the book edits that change something, one batch per series with its credits refreshed once, and
   * announces each changed book and its series. Returns how many books changed.
   */
  private async writeBookEdits(edits: Array<{ row: BookMetadataRow; edit: BookEdit }>): Promise<number> {
    const bySeries = bookEditPlan(edits, new Date().toISOString());
    for (const [seriesId, { writes, events }] of bySeries) {
      await this.writer.editBooksOfSeries(seriesId, writes);
      this.events.publish(...events);
    }
    return [...bySeries.values()].reduce((sum, group) => sum + group.writes.length, 0);
  }

  bulkPatchSeries(viewer: Viewer, { seriesIds, ...patch }: SeriesFieldsPatch & { seriesIds: string[] }) {
    return this.bulkSeries(viewer, seriesIds, () => ({ values: patch, locks: lockAll(patch) }));
  }

  bulkSeriesLocks(
    viewer: Viewer,
    { seriesIds, ...locks }: Omit<SeriesLocksUpdate, 'ageRating'> & { seriesIds: string[] },
  ) {
    return this.bulkSeries(viewer, seriesIds, () => ({ values: {}, locks }));
  }

  bulkPatchBooks(viewer: Viewer, { bookIds, ...patch }: BookMetadataPatch & { bookIds: string[] }) {
    return this.bulkBooks(viewer, bookIds, () => ({ values: patch, locks: lockAll(patch) }));
  }

  bulkBookLocks(viewer: Viewer, { bookIds, ...locks }: BookLocksUpdate & { bookIds: string[] }) {
    return this.bulkBooks(viewer, bookIds, () => ({ values: {}, locks }));
  }
}
