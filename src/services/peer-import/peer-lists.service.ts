/**
 * A peer's collections and read lists, imported (docs/DECISIONS.md §Coming from Komga or Kavita): Komga's are
 * server-wide and become shared lists; Kavita's belong to one user and stay theirs (a promoted one, which Kavita
 * shows to everyone, is shared). Members keep their order; those the migration could not match are left out.
 * A list whose name a list of the same owner already has is skipped and reported (rename one and run again):
 * nothing is merged into a list someone made here.
 */
import { newId, nowIso } from '../../lib/ids';
import type { Statement } from '../../repositories/catalog-writer.repository';
import type { CollectionsRepository } from '../../repositories/collections.repository';
import type { ImportsRepository } from '../../repositories/imports.repository';
import type { ReadListsRepository } from '../../repositories/read-lists.repository';
import type { ImportList, ImportOutcome } from '../../schemas/import.schema';
import { assertDistinct, created, skipped, unchanged, runBatch } from './outcomes';

export interface PeerListsDeps {
  imports: ImportsRepository;
  collections: CollectionsRepository;
  readLists: ReadListsRepository;
}

export class PeerListsService {
  constructor(private readonly deps: PeerListsDeps) {}

  /**
   * What decides each list is read in one wave, beside the credential check (the route is `checked-writes`);
   * the lists are written once it succeeded (`checked`), in one batch.
   */
  async importLists(
    source: string,
    lists: readonly ImportList[],
    checked: () => Promise<void>,
  ): Promise<ImportOutcome[]> {
    const { imports, collections, readLists } = this.deps;
    assertDistinct('lists', lists, (list) => list.kind);
    const ofKind = (kind: ImportList['kind']) => lists.filter((l) => l.kind === kind);
    const memberIds = (kind: ImportList['kind']) => [...new Set(ofKind(kind).flatMap((l) => l.memberIds))];
    const [collectionOrigins, readListOrigins, collectionNames, readListNames, liveSeries, liveBooks, owners] =
      await Promise.all([
        imports.origins(
          source,
          'collection',
          ofKind('collection').map((l) => l.foreignId),
        ),
        imports.origins(
          source,
          'read_list',
          ofKind('readList').map((l) => l.foreignId),
        ),
        collections.namesTaken(ofKind('collection').map((l) => l.name)),
        readLists.namesTaken(ofKind('readList').map((l) => l.name)),
        imports.liveIds('series', memberIds('collection')),
        imports.liveIds('books', memberIds('readList')),
        imports.existingUsers(lists.flatMap((l) => (l.ownerId ? [l.ownerId] : []))),
      ]);
    const now = nowIso();
    const results: ImportOutcome[] = [];
    const statements: Statement[] = [];
    const remembered = { collection: [] as RememberedList[], read_list: [] as RememberedList[] };
    for (const list of lists) {
      const isCollection = list.kind === 'collection';
      const known = (isCollection ? collectionOrigins : readListOrigins).get(list.foreignId);
      if (known) {
        results.push(unchanged(list.foreignId, known));
        continue;
      }
      if (list.ownerId && !owners.has(list.ownerId)) {
        results.push(skipped(list.foreignId, `its owner ${list.ownerId} is not a Longbox user`));
        continue;
      }
      const nameKey = `${list.ownerId ?? ''}/${list.name.toLowerCase()}`;
      const names = isCollection ? collectionNames : readListNames;
      if (names.has(nameKey)) {
        const whose = list.ownerId ? 'this user already has one' : 'a shared one exists';
        results.push(
          skipped(
            list.foreignId,
            `a ${isCollection ? 'collection' : 'read list'} named "${list.name}": ${whose} (rename one and run again)`,
          ),
        );
        continue;
      }
      names.add(nameKey);
      const live = isCollection ? liveSeries : liveBooks;
      // In the peer's order, each member once (its first place), those found here only.
      const members = [...new Set(list.memberIds)].filter((id) => live.has(id));
      const id = newId();
      const row = {
        id,
        name: list.name,
        ownerUserId: list.ownerId,
        ordered: list.ordered,
        createdAt: now,
        updatedAt: now,
      };
      const repository = isCollection ? collections : readLists;
      statements.push(
        isCollection
          ? collections.create({ ...row, summary: list.summary })
          : readLists.create({ ...row, summary: list.summary ?? '' }),
        ...repository.members.replace(id, members),
      );
      remembered[isCollection ? 'collection' : 'read_list'].push({ foreignId: list.foreignId, longboxId: id });
      const left = list.memberIds.length - members.length;
      results.push(
        left === 0
          ? created(list.foreignId, id)
          : { ...created(list.foreignId, id), reason: `${left} member(s) not found in Longbox were left out` },
      );
    }
    await checked();
    await runBatch(imports, [
      ...statements,
      ...imports.remember(source, 'collection', remembered.collection, now),
      ...imports.remember(source, 'read_list', remembered.read_list, now),
    ]);
    return results;
  }
}

type RememberedList = { foreignId: string; longboxId: string };
