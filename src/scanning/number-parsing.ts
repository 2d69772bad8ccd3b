/**
 * Volume, chapter and number from a file name when the file's metadata does not state them
 * ("Berserk v03.cbz", "One Piece c1045.5.cbz", "Saga #12.cbz", "Akira 04.cbz").
 */
export interface ParsedNumbers {
  volume: number | null;
  chapter: number | null;
  /** The integer part of the book's number (API.md's `number`). */
  number: number | null;
  /** The book's number as written, fractional part kept ("Saga 2.5" → 2.5): reading order sorts by it. */
  numberSort: number | null;
}

const VOLUME = /(?:^|[\s_.\-([])(?:v|vol|volume|tome|t)\.?\s*(\d{1,4})(?![\d])/i;
const CHAPTER = /(?:^|[\s_.\-([])(?:c|ch|chap|chapter|#)\.?\s*(\d{1,5}(?:\.\d{1,2})?)(?![\d])/i;
const TRAILING_NUMBER = /(\d{1,5}(?:\.\d{1,2})?)(?!.*\d)/;

export function parseNumbers(baseName: string): ParsedNumbers {
  const volume = VOLUME.exec(baseName);
  const chapter = CHAPTER.exec(baseName);
  const chapterValue = chapter ? Number(chapter[1]) : null;
  const volumeValue = volume ? Number(volume[1]) : null;
  let number: number | null = chapterValue ?? volumeValue;
  if (number === null) {
    const trailing = TRAILING_NUMBER.exec(baseName);
    number = trailing ? Number(trailing[1]) : null;
  }
  return {
    volume: volumeValue,
    chapter: chapterValue,
    number: number === null ? null : Math.floor(number),
    numberSort: number,
  };
}
