/**
 * Chapter and volume numbers as providers write them ("12", "12.5", "10-12", "113a", "v.3"): one span each,
 * from the first number to the last (a single chapter is a span of one). Letter suffixes of split chapters
 * ("113a", "113b") count as the chapter itself, as Codex-rs's MangaUpdates parser reads them.
 */
export interface Span {
  start: number;
  end: number;
}

const NUMBER = /\d+(?:\.\d+)?/g;

/** The span a text names, or null when it names no number. Volumes (`integer`) keep whole numbers only. */
export function parseSpan(text: string | null | undefined, integer: boolean): Span | null {
  if (!text) return null;
  const numbers = (text.match(NUMBER) ?? []).map(Number).filter((n) => Number.isFinite(n) && n >= 0);
  const values = integer ? numbers.filter(Number.isInteger) : numbers;
  if (values.length === 0) return null;
  // "10-12" names a range; "12 (v2)" or a stray second number is not read as one unless it follows a dash.
  const ranged = values.length >= 2 && /\d\s*[-~–]\s*\d/.test(text);
  const start = values[0] as number;
  const end = ranged ? (values[1] as number) : start;
  return end >= start ? { start, end } : { start: end, end: start };
}
