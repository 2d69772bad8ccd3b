/** The tracking card's sentence (issue 32): "3 chapters and 1 volume behind, MangaUpdates". */
import { describe, expect, it } from 'vitest';
import type { Series, SeriesTracking } from '../api/types';
import { gapSentence } from './tracking-card';

const series = (gaps: Partial<Series>) =>
  ({ upstreamChapterGap: null, upstreamVolumeGap: null, upstreamGapProvider: null, ...gaps }) as Series;
const tracking = (provider: string | null) => ({ upstreamProvider: provider }) as SeriesTracking;

describe('the gap sentence', () => {
  it('names both gaps, one, or none, with the provider', () => {
    expect(
      gapSentence(
        series({ upstreamChapterGap: 3, upstreamVolumeGap: 1, upstreamGapProvider: 'MangaUpdates' }),
        tracking('MangaUpdates'),
      ),
    ).toBe('3 chapters and 1 volume behind, MangaUpdates');
    expect(gapSentence(series({ upstreamChapterGap: 1, upstreamGapProvider: 'AniList' }), tracking('AniList'))).toBe(
      '1 chapter behind, AniList',
    );
    expect(gapSentence(series({ upstreamVolumeGap: 2, upstreamGapProvider: 'AniList' }), tracking('AniList'))).toBe(
      '2 volumes behind, AniList',
    );
    expect(gapSentence(series({}), tracking('MangaUpdates'))).toBe('Up to date with MangaUpdates');
    expect(gapSentence(series({}), tracking(null))).toBeNull();
  });
});
