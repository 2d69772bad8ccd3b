/**
 * Nobody hands out access they lack (docs/DECISIONS.md §Organise and share): a user administrator whose own
 * access is limited — a maintainer holding UsersWrite, or anyone acting through a narrowed API key — may
 * only give a user access that stays inside theirs. The test is by construction, not by comparing series:
 * every limit of the actor must be carried over to the user at least as strictly.
 */
import type { ContentRestrictions, ViewerAccess } from '../repositories/visibility';

const subset = (a: readonly string[], b: readonly string[]) => a.every((x) => b.includes(x));

/** Why the user's access `target` reaches beyond the actor's, or null when it stays within it. */
export function beyondAccess(actor: ViewerAccess, target: ViewerAccess): string | null {
  if (actor.libraries !== null) {
    if (target.libraries === null) return 'you do not see every library';
    const outside = target.libraries.filter((id) => !actor.libraries?.includes(id));
    if (outside.length > 0) return `you do not see the libraries ${outside.join(', ')}`;
  }
  return actor.content === null ? null : beyondContent(actor.content, target.content);
}

function beyondContent(actor: ContentRestrictions, target: ContentRestrictions | null): string | null {
  const own = target ?? { age: null, allowLabels: [], denyLabels: [] };
  const missingDenied = actor.denyLabels.filter((id) => !own.denyLabels.includes(id));
  if (missingDenied.length > 0) return `the labels ${missingDenied.join(', ')} are denied to you and must be to them`;
  if (actor.age?.mode === 'EXCLUDE') {
    const limit = actor.age.age;
    const excludes = own.age?.mode === 'EXCLUDE' && own.age.age <= limit;
    // ALLOW_ONLY below the limit hides every rating from it up, unless an allowed label lets a series through.
    const allowsLess = own.age?.mode === 'ALLOW_ONLY' && own.age.age < limit && own.allowLabels.length === 0;
    if (!excludes && !allowsLess) return `series rated ${limit} or more are hidden from you and must be from them`;
  }
  const actorAllows = actor.age?.mode === 'ALLOW_ONLY' || actor.allowLabels.length > 0;
  if (!actorAllows) return null;
  // What the user may see must be allowed to the actor: each of their allowances within the actor's.
  const ownAge = own.age?.mode === 'ALLOW_ONLY' ? own.age.age : null;
  if (ownAge === null && own.allowLabels.length === 0) {
    return 'you see only some ratings or labels: give them an ALLOW_ONLY age or allowed labels within yours';
  }
  if (ownAge !== null && !(actor.age?.mode === 'ALLOW_ONLY' && ownAge <= actor.age.age)) {
    return actor.age?.mode === 'ALLOW_ONLY'
      ? `you see series rated up to ${actor.age.age} only`
      : 'you see series by label only, not by age';
  }
  if (!subset(own.allowLabels, actor.allowLabels)) return 'they would be allowed labels you are not';
  return null;
}
