/**
 * Read lists from ComicInfo story arcs (docs/DECISIONS.md §Organise and share): a scan of a library that opts in
 * makes one read list per arc, books placed at their arc numbers, Komga's way (a clashing number or none goes last).
 */
import { describe, expect, it } from 'vitest';
import { setupAdmin } from '../support/factories';
import { api, type Credentials } from '../support/http';
import { makeCbz, putObject } from '../support/library-files';
import { createLibrary, scan } from '../support/scans';

const titles = (body: { data: Array<{ seriesTitle?: string; number?: number | null; title: string }> }) =>
  body.data.map((b) => b.title);

async function readListNamed(auth: Credentials, name: string) {
  const lists = await api(`/readlists?search=${encodeURIComponent(name)}`, { auth });
  return lists.body.data.find((l: { name: string }) => l.name === name) as
    | { id: string; bookCount: number }
    | undefined;
}

describe('story arc read lists', () => {
  it('appear after a scan of a library that opts in, in arc order', async () => {
    const { auth } = await setupAdmin();
    const libraryId = await createLibrary(auth, { name: 'Arcs', path: 'arcs', importStoryArcReadLists: true });
    expect((await api(`/libraries/${libraryId}`, { auth })).body.importStoryArcReadLists).toBe(true);
    const book = (series: string, number: string, arcs: { StoryArc: string; StoryArcNumber?: string }) =>
      makeCbz(1, { Series: series, Number: number, Title: `${series} ${number}`, ...arcs });
    await putObject(
      'arcs/X-Men/X-Men 1.cbz',
      await book('X-Men', '1', { StoryArc: 'Civil War, Heroes', StoryArcNumber: '2,1' }),
    );
    await putObject('arcs/X-Men/X-Men 2.cbz', await book('X-Men', '2', { StoryArc: 'Civil War', StoryArcNumber: '2' }));
    await putObject(
      'arcs/Spider-Man/Spider-Man 1.cbz',
      await book('Spider-Man', '1', { StoryArc: 'Civil War', StoryArcNumber: '1' }),
    );
    await putObject('arcs/Spider-Man/Spider-Man 2.cbz', await book('Spider-Man', '2', { StoryArc: 'Civil War' }));
    await scan(auth, libraryId);

    const civilWar = await readListNamed(auth, 'Civil War');
    expect(civilWar?.bookCount).toBe(4);
    // #1, #2, then X-Men 2 (its #2 is taken) and Spider-Man 2 (no number) after the last.
    expect(titles((await api(`/readlists/${civilWar?.id}/books`, { auth })).body)).toEqual([
      'Spider-Man 1',
      'X-Men 1',
      'X-Men 2',
      'Spider-Man 2',
    ]);
    const heroes = await readListNamed(auth, 'Heroes');
    expect(titles((await api(`/readlists/${heroes?.id}/books`, { auth })).body)).toEqual(['X-Men 1']);

    // A rescan keeps the lists as they are (and makes no second one).
    await scan(auth, libraryId);
    expect((await api('/readlists', { auth })).body.total).toBe(2);
  });

  it('are not made unless the library opts in; turning it on builds them at the next scan', async () => {
    const { auth } = await setupAdmin();
    const libraryId = await createLibrary(auth, { name: 'Plain', path: 'plain' });
    expect((await api(`/libraries/${libraryId}`, { auth })).body.importStoryArcReadLists).toBe(false);
    await putObject(
      'plain/Saga/Saga 1.cbz',
      await makeCbz(1, { Series: 'Saga', Number: '1', StoryArc: 'Book One', StoryArcNumber: '1' }),
    );
    await scan(auth, libraryId);
    expect((await api('/readlists', { auth })).body.total).toBe(0);

    const updated = await api(`/libraries/${libraryId}`, {
      auth,
      method: 'PUT',
      json: { importStoryArcReadLists: true },
    });
    expect(updated.body.importStoryArcReadLists).toBe(true);
    await scan(auth, libraryId);
    expect((await readListNamed(auth, 'Book One'))?.bookCount).toBe(1);
  });
});
