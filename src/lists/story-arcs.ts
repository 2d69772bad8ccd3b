/**
 * Read lists from ComicInfo story arcs (docs/DECISIONS.md §Read lists, story arcs): each arc a book names
 * becomes a read list of that name (an existing list of that name, whatever its case, is the arc's), with the
 * book at its arc number. Komga's placement rule (`ReadListLifecycle`): a book already in the list stays where
 * it is; a number that is free is the book's position; a number already taken, or none, puts the book after
 * the last one. Books are placed numbered ones first, by number, then the others in the order given, so the
 * outcome does not depend on the order a scan met the files in.
 */

export interface ArcMember {
  bookId: string;
  /** The book's number in the arc, when the file gives one. */
  number: number | null;
}

export interface Placement {
  bookId: string;
  position: number;
}

/**
 * Where each new member of one arc goes, given the list's current positions by book (empty for a new list).
 * Books already in the list are left out of the result.
 */
export function placeInArc(current: ReadonlyMap<string, number>, members: readonly ArcMember[]): Placement[] {
  const taken = new Set(current.values());
  let last = taken.size > 0 ? Math.max(...taken) : null;
  const seen = new Set(current.keys());
  const ordered = [
    ...members.filter((m) => m.number !== null).sort((a, b) => (a.number as number) - (b.number as number)),
    ...members.filter((m) => m.number === null),
  ];
  const placed: Placement[] = [];
  for (const { bookId, number } of ordered) {
    if (seen.has(bookId)) continue;
    seen.add(bookId);
    // A new list starts at the book's number, or at 0 (Komga); an existing one appends after its last book.
    const position = number !== null && !taken.has(number) ? number : last === null ? 0 : last + 1;
    taken.add(position);
    last = last === null ? position : Math.max(last, position);
    placed.push({ bookId, position });
  }
  return placed;
}
