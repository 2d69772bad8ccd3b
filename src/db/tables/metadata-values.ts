/** Value shapes of the metadata columns shared by books and series (JSON columns and term kinds). */

/** Kinds of multi-valued book and series terms (ComicInfo Genre, Tags, Characters, Teams, Locations). */
export const TERM_KINDS = ['genre', 'tag', 'character', 'team', 'location'] as const;
export type TermKind = (typeof TERM_KINDS)[number];

/** A person credited on a book or series, with a lower-case role (writer, penciller, cover…). */
export interface CreditedAuthor {
  name: string;
  role: string;
}

/** A web page about a book or series. */
export interface WebLinkValue {
  label: string;
  url: string;
}

/** A series' other title (Komga `alternateTitles`): `label` says which (a language, "Romaji"…). */
export interface AlternateTitle {
  label: string;
  title: string;
}
