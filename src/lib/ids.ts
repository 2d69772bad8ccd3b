/** Ids are UUID v4 (DECISIONS.md §Names); timestamps UTC ISO 8601 with milliseconds. */
export const newId = (): string => crypto.randomUUID();
export const nowIso = (): string => new Date().toISOString();
