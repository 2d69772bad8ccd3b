/**
 * Longbox user names from a peer's: Komga has none (its accounts are e-mail addresses: the local part is used,
 * as for a user Komga's API creates, docs/DECISIONS.md §Administration), and Kavita's may hold characters
 * Longbox's do not (`@`, `+`). Made valid (letters, digits, `.`, `_`, `-`; 3 to 64 characters; not `api`) and
 * unique among the peer's users; the report says when a name changed.
 */
export function uniqueUsername(wanted: string, taken: Set<string>): string {
  let base = wanted
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  if (base.length < 3) base = `${base || 'user'}-user`.slice(0, 60);
  if (base.toLowerCase() === 'api') base = 'api-user';
  let name = base;
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base}-${n}`;
  taken.add(name.toLowerCase());
  return name;
}
