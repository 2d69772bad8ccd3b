/**
 * Series responses (API.md §2), including the upstream gap rules: a gap is set only when the series is
 * tracked, that kind of tracking is on, the provider's count is known and the gap is positive; the
 * chapter gap is rounded to one decimal; the provider name accompanies any gap.
 */
import { coverVersion } from '../catalog/cover-version';
import type { SeriesRow } from '../repositories/series.repository';
import type { SeriesDto } from '../schemas/series.schema';

function positiveGap(enabled: boolean, upstream: number | null, local: number | null, decimals: number): number | null {
  if (!enabled || upstream === null || local === null) return null;
  const factor = 10 ** decimals;
  const gap = Math.round((upstream - local) * factor) / factor;
  return gap > 0 ? gap : null;
}

export function toSeriesDto(row: SeriesRow): SeriesDto {
  // A tracking row with tracking off keeps its settings for when it is turned on again: no gaps meanwhile.
  const tracking = row.tracking?.tracked ? row.tracking : null;
  const chapterGap = tracking
    ? positiveGap(tracking.chapterTracking, tracking.providerChapterCount, row.localMaxChapter, 1)
    : null;
  const volumeGap = tracking
    ? positiveGap(tracking.volumeTracking, tracking.providerVolumeCount, row.localMaxVolume, 0)
    : null;
  const anyGap = chapterGap !== null || volumeGap !== null;
  return {
    id: row.id,
    title: row.title,
    titleSort: row.titleSort,
    summary: row.summary,
    publisher: row.publisher,
    year: row.year,
    ageRating: row.ageRating,
    libraryId: row.libraryId,
    libraryName: row.libraryName,
    path: row.path,
    bookCount: row.bookCount,
    hasCustomCover: row.hasCustomCover,
    selectedCoverSource: row.selectedCoverSource,
    coverVersion: coverVersion(row.coverSource),
    tracked: tracking !== null,
    // Not completed by the user: in progress counts as unread here (API.md §2 Series).
    unreadCount: row.readCounts.books - row.readCounts.read,
    wantToRead: row.wantToRead,
    localMaxChapter: row.localMaxChapter,
    localMaxVolume: row.localMaxVolume,
    volumesOwned: row.volumesOwned,
    upstreamChapterGap: chapterGap,
    upstreamVolumeGap: volumeGap,
    upstreamGapProvider: anyGap ? (tracking?.providerName ?? null) : null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
