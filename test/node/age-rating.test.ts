/**
 * ComicInfo `AgeRating` → minimum age, Komga's table (docs/DECISIONS.md §Enforcement): every value of the
 * Anansi enumeration, matched lower-case with spaces removed; Unknown, Rating Pending and anything else are
 * no rating (which an ALLOW_ONLY restriction hides and an EXCLUDE one lets through).
 */
import { describe, expect, it } from 'vitest';
import { ageOfRating } from '../../src/media/age-rating';

describe('ComicInfo AgeRating as an age', () => {
  it('maps every rating of the table to its age', () => {
    const table: Array<[string, number]> = [
      ['Everyone', 0],
      ['G', 0],
      ['Early Childhood', 3],
      ['Kids to Adults', 6],
      ['PG', 8],
      ['Everyone 10+', 10],
      ['Teen', 13],
      ['MA15+', 15],
      ['M', 17],
      ['Mature 17+', 17],
      ['Adults Only 18+', 18],
      ['R18+', 18],
      ['X18+', 18],
    ];
    expect(table.map(([rating]) => [rating, ageOfRating(rating)])).toEqual(table);
  });

  it('ignores case and spaces', () => {
    expect(ageOfRating('adults only 18+')).toBe(18);
    expect(ageOfRating('ADULTSONLY18+')).toBe(18);
    expect(ageOfRating('MA 15+')).toBe(15);
    expect(ageOfRating('everyone10+')).toBe(10);
    expect(ageOfRating('kids toadults')).toBe(6);
  });

  it('reads Unknown, Rating Pending, anything else and nothing as no rating', () => {
    for (const value of ['Unknown', 'Rating Pending', 'PG-13', '18', 'Adults Only', 'Mature', '', null, undefined]) {
      expect(ageOfRating(value), String(value)).toBeNull();
    }
  });
});
