/**
 * Time (measured and estimated, stacked) and pages per week or month: a person's year on the Statistics screen,
 * any window on the admin's Reading section.
 */
import type { ReadingDuration } from '../api/types';
import { t } from '../i18n';
import { BarChart } from './bar-chart';
import { periodAxis } from './period-axis';
import { formatCount, formatDuration, hours, type Period, type PeriodGranularity, periodName } from './shape';

/** The charts of one window's periods; `windowName` is how the sentences name it ("2026", "the last 12 months"). */
export function PeriodCharts({
  granularity,
  rows,
  duration,
  windowName,
}: {
  granularity: PeriodGranularity;
  rows: Period[];
  duration: ReadingDuration;
  windowName: string;
}) {
  const buckets = rows.map((row) => row.bucket);
  const axis = periodAxis(buckets, granularity);
  const hoursAxis = (value: number) => t('stats.hoursAxis', { hours: Math.round(value * 10) / 10 });
  const mostPages = rows.reduce<Period | null>(
    (best, row) => (row.pagesRead > (best?.pagesRead ?? 0) ? row : best),
    null,
  );
  const totalPages = rows.reduce((sum, row) => sum + row.pagesRead, 0);
  return (
    <>
      <BarChart
        id={`time-${granularity}`}
        caption={t(granularity === 'week' ? 'stats.timePer.week' : 'stats.timePer.month')}
        keys={buckets}
        axis={axis}
        legend
        series={[
          { name: t('stats.measured'), values: rows.map((row) => hours(row.duration.measuredMs)), tone: 'measured' },
          { name: t('stats.inferred'), values: rows.map((row) => hours(row.duration.inferredMs)), tone: 'inferred' },
        ]}
        formatValue={hoursAxis}
        summary={
          duration.inferredMs > 0 ? (
            <>
              {t('stats.timeOfWhichEstimated', {
                total: formatDuration(duration.totalMs),
                inferred: formatDuration(duration.inferredMs),
              })}{' '}
              <span class="muted">{t('stats.inferredHint')}</span>
            </>
          ) : (
            t('stats.timeAllMeasured', { total: formatDuration(duration.totalMs) })
          )
        }
        numbers={{
          headings: [t('stats.period'), t('stats.measured'), t('stats.inferred'), t('stats.total')],
          rows: rows.map((row) => ({
            key: row.bucket,
            heading: periodName(row.bucket, granularity),
            cells: [
              formatDuration(row.duration.measuredMs),
              formatDuration(row.duration.inferredMs),
              formatDuration(row.duration.totalMs),
            ],
          })),
        }}
      />
      <BarChart
        id={`pages-${granularity}`}
        caption={t(granularity === 'week' ? 'stats.pagesPer.week' : 'stats.pagesPer.month')}
        keys={buckets}
        axis={axis}
        integer
        series={[{ name: t('stats.pages'), values: rows.map((row) => row.pagesRead), tone: 'plain' }]}
        summary={
          mostPages
            ? t('stats.pagesSummary', {
                pages: formatCount(totalPages),
                window: windowName,
                period: periodName(mostPages.bucket, granularity),
                most: formatCount(mostPages.pagesRead),
              })
            : t('stats.pagesNone', { window: windowName })
        }
        numbers={{
          headings: [t('stats.period'), t('stats.pages')],
          rows: rows.map((row) => ({
            key: row.bucket,
            heading: periodName(row.bucket, granularity),
            cells: [formatCount(row.pagesRead)],
          })),
        }}
      />
    </>
  );
}
