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
import { assertDistinct, created, skipped, unchanged, runBatch } from './outcomes';

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
   * check (the route is `checked-writes`), the names of the sharing labels sent among it; once it succeeded
   * (`checked`), everything is one batch: the labels not there yet and the ratings and labels of the series that
   * carry some (made by the sharing service, the one place that writes what decides who sees a series), the
   * fields, and what the batch remembers.
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
    const [seriesOrigins, bookOrigins, found, knownLabels] = await Promise.all([
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
      sharingTags.existingIdsNamed(body.series.flatMap((s) => s.sharingLabels)),
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
    const now = nowIso();
    const sharing = sharingTags.seriesContentStatements(
      actor,
      series.flatMap(({ seriesId, locked: { ageRating }, sharingLabels }) =>
        ageRating === undefined && sharingLabels.length === 0
          ? []
          : [
              {
                seriesId,
                edit: {
                  ...(ageRating === undefined ? {} : { ageRating, ageRatingLock: true }),
                  ...(sharingLabels.length === 0 ? {} : { sharingLabels, sharingLabelsLock: true }),
                },
              },
            ],
      ),
      knownLabels,
      now,
    );
    await checked();
    await runBatch(imports, [
      ...sharing,
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
   * succeeded (`checked`), the images are stored while the cover's row is written with what the import remembers
   * (`CoversService.store`: one wave).
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
    const pair = [{ foreignId: item.foreignId, longboxId: prepared.id }];
    await covers.store(prepared, true, {
      write: imports.remember(item.source, 'cover', pair, nowIso()),
      // A cover whose images could not be stored is not remembered: the next run imports it again.
      undo: imports.forget(item.source, 'cover', pair),
    });
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
