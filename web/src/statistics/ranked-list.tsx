/**
 * A ranking of the year's series, authors or formats by time read: each entry's name, its time and pages in
 * words, and a bar of its share of the first entry's time (decorative: the words carry the numbers).
 */
import { t } from '../i18n';
import { formatCount, formatDuration, type Measures } from './shape';

export interface RankedItem extends Measures {
  key: string;
  name: string;
  href?: string | undefined;
}

export function RankedList({ id, items, empty }: { id: string; items: RankedItem[]; empty: string }) {
  if (items.length === 0) return <p class="muted">{empty}</p>;
  const most = Math.max(1, ...items.map((item) => item.duration.totalMs));
  return (
    <ol class="ranked" data-ranked={id}>
      {items.map((item) => (
        <li key={item.key} class="ranked__item" data-ranked-item={item.key}>
          <span class="ranked__name">{item.href ? <a href={item.href}>{item.name}</a> : item.name}</span>
          <span class="ranked__figures">
            {t('stats.rankedTime', { time: formatDuration(item.duration.totalMs), pages: formatCount(item.pagesRead) })}
          </span>
          <span class="ranked__bar" aria-hidden="true">
            <span style={{ width: `${Math.max(2, (item.duration.totalMs / most) * 100).toFixed(1)}%` }} />
          </span>
        </li>
      ))}
    </ol>
  );
}
