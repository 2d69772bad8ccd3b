/**
 * The headline figures of a window — the reader's year in review, the server's totals: each a name over its
 * figure, with what qualifies it ("of which … estimated", the dates) on a line below.
 */
import type { ComponentChildren } from 'preact';
import type { ReadingDuration } from '../api/types';
import { t } from '../i18n';
import { formatDuration } from './shape';

export function Facts({ children }: { children: ComponentChildren }) {
  return <dl class="review__facts">{children}</dl>;
}

/** One figure; `name` is its `data-fact`, for the tests. */
export function Fact({ name, label, children }: { name: string; label: string; children: ComponentChildren }) {
  return (
    <div data-fact={name}>
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** The window's reading time, and how much of it was estimated from progress saves rather than measured. */
export function TimeFact({ duration }: { duration: ReadingDuration }) {
  return (
    <Fact name="time" label={t('stats.review.time')}>
      <strong>{formatDuration(duration.totalMs)}</strong>
      {duration.inferredMs > 0 && (
        <span class="muted"> {t('stats.ofWhichEstimated', { inferred: formatDuration(duration.inferredMs) })}</span>
      )}
    </Fact>
  );
}
