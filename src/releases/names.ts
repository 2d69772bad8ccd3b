/**
 * Titles compared the way a provider's search is matched against a series' title and aliases: accents and
 * case dropped, punctuation as spaces, spaces collapsed (Codex-rs's alias `normalized`). "Boku no Hero
 * Academia!" and "boku no hero academia" are one name; "My Hero Academia" is another (an alias).
 */
export function normalizeTitle(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
