/** How a release's numbers read (issue 32): "Chapter 14 · Volume 3", "Chapters 10–12". */
import type { Release } from '../api/types';
import { type MessageKey, t } from '../i18n';

export function releaseLabel(release: Pick<Release, 'chapters' | 'volumes'>): string {
  const part = (spans: Release['chapters'], one: MessageKey, many: MessageKey) => {
    const span = spans?.[0];
    if (!span) return null;
    return span.start === span.end ? t(one, { n: span.end }) : t(many, { from: span.start, to: span.end });
  };
  return [
    part(release.chapters, 'releases.chapter', 'releases.chapters'),
    part(release.volumes, 'releases.volume', 'releases.volumes'),
  ]
    .filter(Boolean)
    .join(' · ');
}
