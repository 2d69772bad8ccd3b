import { describe, expect, it } from 'vitest';
import { parseNumbers } from './number-parsing';

describe('numbers from a file name, when the metadata states none (README: Bringing a library in)', () => {
  it('reads volume markers: v, vol, volume, tome, t, with or without a dot or space', () => {
    for (const name of [
      'Berserk v03',
      'Berserk vol.3',
      'Berserk Vol 3',
      'Berserk Volume 3',
      'Berserk tome 3',
      'Berserk T3',
    ]) {
      expect(parseNumbers(name), name).toEqual({ volume: 3, chapter: null, number: 3 });
    }
  });

  it('reads chapter markers: c, ch, chap, chapter and #, keeping a fractional chapter', () => {
    expect(parseNumbers('One Piece c1045.5')).toEqual({ volume: null, chapter: 1045.5, number: 1045 });
    expect(parseNumbers('Chainsaw Man ch.97')).toEqual({ volume: null, chapter: 97, number: 97 });
    expect(parseNumbers('Saga #12')).toEqual({ volume: null, chapter: 12, number: 12 });
    expect(parseNumbers('Blame! Chapter 7')).toEqual({ volume: null, chapter: 7, number: 7 });
  });

  it('numbers a book by its chapter when the name has both a volume and a chapter', () => {
    expect(parseNumbers('Vinland Saga v02 c010')).toEqual({ volume: 2, chapter: 10, number: 10 });
  });

  it('falls back to the last number in the name, without calling it a volume or chapter', () => {
    expect(parseNumbers('Akira 04')).toEqual({ volume: null, chapter: null, number: 4 });
    expect(parseNumbers('Batman (2016) 050')).toEqual({ volume: null, chapter: null, number: 50 });
  });

  it('needs a separator before a marker: the v of "Avengers" is not a volume', () => {
    expect(parseNumbers('Avengers 12')).toEqual({ volume: null, chapter: null, number: 12 });
  });

  it('gives no numbers to a name without digits', () => {
    expect(parseNumbers('Watchmen')).toEqual({ volume: null, chapter: null, number: null });
  });
});
