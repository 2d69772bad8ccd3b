/**
 * Read lists from ComicInfo story arcs, after a scan of a library that opts in (`importStoryArcReadLists`;
 * docs/DECISIONS.md §Organise and share): each arc its books name becomes the read list of that name (an
 * existing list of that name, whatever its case, is the arc's), its books placed by story-arcs.ts. Runs over
 * what the scans stored per book (`book_story_arcs`), so turning the setting on needs no re-analysis.
 */
import type { Database } from '../db/client';
import type { EventPublisher } from '../events/events';
import { newId, nowIso } from '../lib/ids';
import type { Statement } from '../repositories/catalog-writer.repository';
import { ReadListsRepository } from '../repositories/read-lists.repository';
import { type ArcMember, type Placement, placeInArc } from './story-arcs';

const asMembers = (placements: Placement[]) => placements.map((p) => ({ id: p.bookId, position: p.position }));

/** Statements per D1 batch: a library names a few hundred arcs at most; each arc is one or two statements. */
const BATCH = 50;

/** Creates or extends the read list of every story arc the library's books name. Returns the lists touched. */
export async function importStoryArcReadLists(db: Database, libraryId: string, events: EventPublisher) {
  const readLists = new ReadListsRepository(db);
  const arcs = new Map<string, { name: string; members: ArcMember[] }>();
  for (const row of await readLists.storyArcsOfLibrary(libraryId)) {
    const key = row.name.toLowerCase();
    const arc = arcs.get(key) ?? { name: row.name, members: [] };
    arc.members.push({ bookId: row.bookId, number: row.number });
    arcs.set(key, arc);
  }
  const existing = await readLists.idsByNames([...arcs.keys()]);
  const statements: Statement[] = [];
  const touched: Array<{ id: string; created: boolean }> = [];
  const now = nowIso();
  for (const [key, arc] of arcs) {
    const id = existing.get(key);
    if (id) {
      const placements = placeInArc(await readLists.members.positions(id), arc.members);
      if (placements.length === 0) continue;
      statements.push(...readLists.members.place(id, asMembers(placements)), readLists.update(id, { updatedAt: now }));
      touched.push({ id, created: false });
    } else {
      const created = newId();
      statements.push(
        readLists.create({ id: created, name: arc.name, summary: '', ordered: true, createdAt: now, updatedAt: now }),
        ...readLists.members.place(created, asMembers(placeInArc(new Map(), arc.members))),
      );
      touched.push({ id: created, created: true });
    }
  }
  for (let start = 0; start < statements.length; start += BATCH) {
    await readLists.run(statements.slice(start, start + BATCH));
  }
  for (const { id, created } of touched) {
    const bookIds = await readLists.members.all(id);
    events.publish({ type: created ? 'read_list_created' : 'read_list_updated', read_list_id: id, book_ids: bookIds });
  }
  return touched.length;
}
