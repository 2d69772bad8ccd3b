/**
 * The peer's books as Longbox has them (docs/DECISIONS.md §Coming from Komga or Kavita): which book here each of
 * the peer's files is — matched, never guessed — and what an admin edited by hand on the peer (locked metadata,
 * sharing labels, uploaded covers), written onto the matched series and books.
 *
 * Matching, in order: the same path relative to the library root, in the library the peer's maps to; then the
 * KOReader partial MD5 both peers store against the book's `readerHash`; then file size and name together. A
 * rule that finds two books decides nothing (they are reported); nothing is ever matched by title.
 */
import type { Principal } from '../../auth/principal';
import { nowIso } from '../../lib/ids';
import type { ImportsRepository, PeerBookHits } from '../../repositories/imports.repository';
import { viewerOf } from '../../repositories/visibility';
import type { BookCandidate, BookMatch, ImportMetadataBody, ImportOutcome } from '../../schemas/import.schema';
import type { CoversService } from '../covers.service';
import type { MetadataService } from '../metadata.service';
import type { SharingTagsService } from '../sharing-tags.service';
import { assertDistinct, created, skipped, unchanged } from './outcomes';

export interface PeerCatalogDeps {
  imports: ImportsRepository;
  metadata: MetadataService;
  sharingTags: SharingTagsService;
  covers: CoversService;
}

const lockAll = (values: object) => Object.fromEntries(Object.keys(values).map((field) => [field, true]));

export class PeerCatalogService {
  constructor(private readonly deps: PeerCatalogDeps) {}

  /** One answer per candidate, in the order sent. Reads only. */
  async matchBooks(candidates: readonly BookCandidate[]): Promise<BookMatch[]> {
    const hits = await this.deps.imports.matchBooks(candidates);
    return candidates.map((candidate, i) => decide(candidate, hits[i] as PeerBookHits));
  }

  /**
   * Locked series and book metadata, and series' sharing labels: each series or book once (a later run finds it
   * remembered and writes nothing, so an edit made here since is kept). An id this server does not have (or
   * that the admin's key does not reach) is skipped. What decides it is read in one wave, beside the credential
   * check (the route is `checked-writes`); once it succeeded (`checked`), the fields and what the batch
   * remembers are one batch — after the rating and labels of the series that carry some, which go through the
   * sharing service (the one place that writes what decides who sees a series).
   */
  async importMetadata(
    actor: Principal,
    body: ImportMetadataBody,
    checked: () => Promise<void>,
  ): Promise<ImportOutcome[]> {
    const { imports, metadata, sharingTags } = this.deps;
    assertDistinct('series', body.series);
    assertDistinct('books', body.books);
    const viewer = viewerOf(actor);
    const [seriesOrigins, bookOrigins, found] = await Promise.all([
      imports.origins(
        body.source,
        'series',
        body.series.map((s) => s.foreignId),
      ),
      imports.origins(
        body.source,
        'book',
        body.books.map((b) => b.foreignId),
      ),
      metadata.seriesAndBooks(
        viewer,
        body.series.map((s) => s.seriesId),
        body.books.map((b) => b.bookId),
      ),
    ]);
    const results: ImportOutcome[] = [];
    const series = body.series.filter((item) => {
      const known = seriesOrigins.get(item.foreignId);
      if (known) results.push(unchanged(item.foreignId, known));
      else if (!found.series.has(item.seriesId)) results.push(skipped(item.foreignId, `no series ${item.seriesId}`));
      else return true;
      return false;
    });
    const books = body.books.filter((item) => {
      const known = bookOrigins.get(item.foreignId);
      if (known) results.push(unchanged(item.foreignId, known));
      else if (!found.books.has(item.bookId)) results.push(skipped(item.foreignId, `no book ${item.bookId}`));
      else return true;
      return false;
    });
    // The plain fields of every series and book (a series or book named twice gets the later one's).
    const seriesEdits = new Map(
      series.map(({ seriesId, locked: { ageRating: _rating, ...values } }) => [
        seriesId,
        { row: found.series.get(seriesId)!.row, edit: { values, locks: lockAll(values) } },
      ]),
    );
    const bookEdits = new Map(
      books.map(({ bookId, locked }) => [
        bookId,
        { row: found.books.get(bookId)!.row, edit: { values: locked, locks: lockAll(locked) } },
      ]),
    );
    const edits = metadata.editStatements([...seriesEdits.values()], [...bookEdits.values()]);
    await checked();
    for (const item of series) {
      const rating = item.locked.ageRating;
      if (rating === undefined && item.sharingLabels.length === 0) continue;
      await sharingTags.editSeriesContent(actor, item.seriesId, {
        ...(rating === undefined ? {} : { ageRating: rating, ageRatingLock: true }),
        ...(item.sharingLabels.length === 0 ? {} : { sharingLabels: item.sharingLabels, sharingLabelsLock: true }),
      });
    }
    const now = nowIso();
    await imports.run([
      ...edits.statements,
      ...imports.remember(
        body.source,
        'series',
        series.map((s) => ({ foreignId: s.foreignId, longboxId: s.seriesId })),
        now,
      ),
      ...imports.remember(
        body.source,
        'book',
        books.map((b) => ({ foreignId: b.foreignId, longboxId: b.bookId })),
        now,
      ),
    ]);
    edits.announce();
    return [
      ...results,
      ...series.map((s) => created(s.foreignId, s.seriesId)),
      ...books.map((b) => created(b.foreignId, b.bookId)),
    ];
  }

  /**
   * A cover uploaded on the peer, stored and shown as an uploaded cover is here; once per peer cover. What decides
   * it is read (and the image thumbnailed) beside the credential check (the route is `checked-writes`); once it
   * succeeded (`checked`), the images are stored, then the cover's row with what the import remembers.
   */
  async importCover(
    actor: Principal,
    item: { source: string; foreignId: string; kind: 'series' | 'book'; id: string },
    bytes: Uint8Array,
    checked: () => Promise<void>,
  ): Promise<ImportOutcome> {
    const { imports, covers } = this.deps;
    const [origins, prepared] = await Promise.all([
      imports.origins(item.source, 'cover', [item.foreignId]),
      covers.readyToStore(viewerOf(actor), { kind: item.kind, id: item.id }, bytes),
    ]);
    const known = origins.get(item.foreignId);
    if (known) return unchanged(item.foreignId, known);
    await checked();
    const remembered = imports.remember(
      item.source,
      'cover',
      [{ foreignId: item.foreignId, longboxId: prepared.id }],
      nowIso(),
    );
    await covers.store(prepared, true, remembered);
    return created(item.foreignId, prepared.id);
  }
}

/** The first rule that finds exactly one book; else why none did. */
function decide(candidate: BookCandidate, hits: PeerBookHits): BookMatch {
  const match = (by: BookMatch['by'], found: { bookId: string; seriesId: string }): BookMatch => ({
    ref: candidate.ref,
    bookId: found.bookId,
    seriesId: found.seriesId,
    by,
    reason: null,
  });
  if (hits.byPath.length === 1) return match('path', hits.byPath[0] as { bookId: string; seriesId: string });
  if (hits.byReaderHash.length === 1)
    return match('readerHash', hits.byReaderHash[0] as { bookId: string; seriesId: string });
  if (hits.bySizeAndName.length === 1) {
    return match('sizeAndName', hits.bySizeAndName[0] as { bookId: string; seriesId: string });
  }
  const reasons = [
    candidate.libraryId === null
      ? 'its library is not mapped to a Longbox library'
      : candidate.path === null
        ? 'no path'
        : `no book at ${candidate.path}`,
    candidate.readerHash === null
      ? 'no KOReader hash'
      : hits.byReaderHash.length > 1
        ? `several books have its KOReader hash ${candidate.readerHash}`
        : `no book with its KOReader hash`,
    candidate.fileName === null || candidate.fileSize === null
      ? 'no file name and size'
      : hits.bySizeAndName.length > 1
        ? `several books are named ${candidate.fileName} and have ${candidate.fileSize} bytes`
        : `no book named ${candidate.fileName} of ${candidate.fileSize} bytes`,
  ];
  return { ref: candidate.ref, bookId: null, seriesId: null, by: null, reason: reasons.join('; ') };
}
