/**
 * People by role as Readium documents list them (OPDS 2 publications, Readium Web Publication manifests):
 * the ComicInfo/OPF roles Longbox stores (writer, penciller, inker, colorist, letterer, cover, editor,
 * translator…) under the Readium contributor keys, as Komga's WebPubGenerator maps them. A role without a
 * key of its own is a `contributor`.
 */
const ROLE_KEYS: Record<string, string> = {
  writer: 'author',
  author: 'author',
  translator: 'translator',
  editor: 'editor',
  artist: 'artist',
  illustrator: 'illustrator',
  letterer: 'letterer',
  penciller: 'penciler',
  penciler: 'penciler',
  colorist: 'colorist',
  inker: 'inker',
  narrator: 'narrator',
};

export const CONTRIBUTOR_KEY = 'contributor';

/** The Readium key of a stored role (`penciller` → `penciler`; `cover` → `contributor`). */
export const readiumRoleKey = (role: string): string => ROLE_KEYS[role.trim().toLowerCase()] ?? CONTRIBUTOR_KEY;

/** Each person under the key of their role, in the order stored; a name appears once per key. */
export function contributorsByRole(
  authors: readonly { name: string; role: string }[],
): Map<string, { name: string; role: string }[]> {
  const byKey = new Map<string, { name: string; role: string }[]>();
  for (const author of authors) {
    const key = readiumRoleKey(author.role);
    const list = byKey.get(key) ?? [];
    if (!list.some((a) => a.name === author.name)) list.push(author);
    byKey.set(key, list);
  }
  return byKey;
}
