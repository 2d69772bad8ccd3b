/**
 * ComicInfo `AgeRating` (the Anansi schema's enumeration) as a minimum age, mapped as Komga maps it
 * (gotson/komga `infrastructure/metadata/comicrack/dto/AgeRating.kt`; the table is in docs/DECISIONS.md
 * §Organise and share). Values are matched lower-cased with spaces removed ("MA 15+" and "ma15+" alike).
 * "Unknown", "Rating Pending" and anything outside the enumeration are no rating.
 */
const AGES = new Map<string, number>(
  Object.entries({
    'adultsonly18+': 18,
    earlychildhood: 3,
    everyone: 0,
    'everyone10+': 10,
    g: 0,
    kidstoadults: 6,
    m: 17,
    'ma15+': 15,
    'mature17+': 17,
    pg: 8,
    'r18+': 18,
    teen: 13,
    'x18+': 18,
  }),
);

export function ageOfRating(value: string | null | undefined): number | null {
  if (!value) return null;
  return AGES.get(value.toLowerCase().replace(/ /g, '')) ?? null;
}
