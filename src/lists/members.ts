/**
 * Editing a list's members when the writer may not see all of them (docs/DECISIONS.md §Organise and share):
 * clients send back only the members they loaded (Komelia's reorder PATCHes the books on screen), so members
 * hidden from the writer keep their places, and the visible places take the members sent, in the order sent.
 */
import { badRequest } from '../lib/errors';

/**
 * The members after a writer replaced what it sees with `sent`: each place of `current` holding a hidden
 * member keeps it, the other places are filled with `sent` in order, what is left of `sent` goes at the end,
 * and visible members not sent are dropped.
 */
export function replaceVisibleMembers(
  current: readonly string[],
  isHidden: (id: string) => boolean,
  sent: readonly string[],
): string[] {
  const queue = [...sent];
  const result: string[] = [];
  for (const id of current) {
    if (isHidden(id)) result.push(id);
    else if (queue.length > 0) result.push(queue.shift() as string);
  }
  return [...result, ...queue];
}

/** The ids named more than once, each once, in the order they first repeat. */
export function repeatedIds(ids: readonly string[]): string[] {
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) repeated.add(id);
    seen.add(id);
  }
  return [...repeated];
}

/**
 * A body's id list checked against the ids the writer may see (`known`): an id named twice, or one that is
 * unknown or hidden, is a 400 naming them, and nothing is changed (docs/DECISIONS.md §Collections and read lists).
 */
export function checkMemberIds(ids: readonly string[], known: ReadonlySet<string>, path: string, what: string): void {
  const repeated = repeatedIds(ids);
  if (repeated.length > 0) {
    throw badRequest(`${path} names the same ${what} more than once: ${repeated.join(', ')}`, [
      { path, message: `repeated: ${repeated.join(', ')}` },
    ]);
  }
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw badRequest(`Unknown ${what} id(s) in ${path}: ${unknown.join(', ')}`, [
      { path, message: `unknown: ${unknown.join(', ')}` },
    ]);
  }
}
