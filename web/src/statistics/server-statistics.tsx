/**
 * Admin → Reading (issue 35 point 4): the server's reading over a window — totals, time and pages per month, the
 * most read series, the most active readers and reading by library — from `GET /admin/reading-stats`, which
 * holds counts and sums only: which books a person read is never shown here (DECISIONS.md §Reading statistics).
 * Loaded by the admin screen only when this section is opened, with Chartist.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { get } from '../api/client';
import type { ServerReadingStats } from '../api/types';
import { Async, useAsync } from '../components/async';
import { t } from '../i18n';
import { Fact, Facts, TimeFact } from './facts';
import { FiguresTable } from './figures-table';
import { PeriodCharts } from './period-charts';
import { browserTimeZone, formatCount, formatDuration, type Measures, periodsBetween, yearWindow } from './shape';
import { StatsCard } from './stats-card';
import './statistics.css';
import { WindowChooser } from './window-chooser';

/** How many series and readers are listed. */
const TOP = 10;
/** Calendar years offered beside the last 12 months. */
const YEARS = 5;

export function ServerStatistics() {
  const thisYear = new Date().getFullYear();
  const [choice, setChoice] = useState<'last' | number>('last');
  const tz = browserTimeZone();
  const stats = useAsync(
    (signal) =>
      get<ServerReadingStats>('/admin/reading-stats', {
        query: { ...(choice === 'last' ? {} : yearWindow(choice)), granularity: 'month', seriesLimit: TOP, tz },
        signal,
      }),
    [choice],
  );
  const windowName = choice === 'last' ? t('admin.reading.lastYearInSentence') : String(choice);
  return (
    <div class="stats" data-server-stats>
      <WindowChooser
        label={t('admin.reading.window')}
        value={String(choice)}
        options={[
          { value: 'last', label: t('admin.reading.lastYear') },
          ...Array.from({ length: YEARS }, (_, index) => String(thisYear - index)).map((year) => ({
            value: year,
            label: year,
          })),
        ]}
        onChoose={(value) => setChoice(value === 'last' ? 'last' : Number(value))}
      />
      <Async state={stats}>
        {(loaded) =>
          loaded.summary.sessions === 0 ? (
            <p class="notice">{t('admin.reading.nothing')}</p>
          ) : (
            <>
              <StatsCard id="server-totals" title={t('admin.reading.totals')} marker="server-totals">
                <Facts>
                  <TimeFact duration={loaded.summary.duration} />
                  <Fact name="readers" label={t('admin.reading.readers')}>
                    <strong>{formatCount(loaded.summary.readers)}</strong>
                  </Fact>
                  <Fact name="pages" label={t('stats.review.pages')}>
                    <strong>{formatCount(loaded.summary.pagesRead)}</strong>
                  </Fact>
                  <Fact name="books" label={t('stats.books')}>
                    <strong>{formatCount(loaded.summary.books)}</strong>
                  </Fact>
                  <Fact name="finished" label={t('stats.review.finished')}>
                    <strong>{formatCount(loaded.summary.booksFinished)}</strong>
                  </Fact>
                  <Fact name="sessions" label={t('stats.sessions')}>
                    <strong>{formatCount(loaded.summary.sessions)}</strong>
                  </Fact>
                </Facts>
              </StatsCard>
              <StatsCard id="server-months" title={t('admin.reading.byMonth')}>
                <PeriodCharts
                  granularity="month"
                  rows={periodsBetween(new Date(loaded.from), new Date(loaded.to), 'month', loaded.periods)}
                  duration={loaded.summary.duration}
                  windowName={windowName}
                />
              </StatsCard>
              <StatsCard id="server-series" title={t('admin.reading.topSeries')}>
                <Ranking
                  id="series"
                  first={t('admin.reading.series')}
                  extra={[t('admin.reading.readers'), t('stats.finished')]}
                  rows={loaded.series.map((entry) => ({
                    key: entry.seriesId,
                    name: entry.seriesName ? (
                      <a href={`/series/${entry.seriesId}`}>{entry.seriesName}</a>
                    ) : (
                      t('stats.unnamedSeries')
                    ),
                    measures: entry,
                    extra: [formatCount(entry.readers), formatCount(entry.booksFinished)],
                  }))}
                />
              </StatsCard>
              <StatsCard id="server-users" title={t('admin.reading.topUsers')}>
                <p class="muted">{t('admin.reading.usersHint')}</p>
                <Ranking
                  id="users"
                  first={t('admin.reading.user')}
                  extra={[t('stats.books'), t('stats.finished')]}
                  rows={loaded.users.map((entry) => ({
                    key: entry.userId,
                    name: entry.username ?? t('admin.reading.formerUser'),
                    measures: entry,
                    extra: [formatCount(entry.books), formatCount(entry.booksFinished)],
                  }))}
                />
              </StatsCard>
              <StatsCard id="server-libraries" title={t('admin.reading.libraries')}>
                <Ranking
                  id="libraries"
                  first={t('admin.reading.library')}
                  extra={[t('admin.reading.readers'), t('stats.books')]}
                  rows={loaded.libraries.map((entry) => ({
                    key: entry.libraryId,
                    name: entry.libraryName ?? t('admin.reading.formerLibrary'),
                    measures: entry,
                    extra: [formatCount(entry.readers), formatCount(entry.books)],
                  }))}
                />
              </StatsCard>
            </>
          )
        }
      </Async>
    </div>
  );
}

/** A ranking as a table: the name, its time (and the estimated part), pages, then the columns of its kind. */
function Ranking({
  id,
  first,
  extra,
  rows,
}: {
  id: string;
  first: string;
  extra: string[];
  rows: { key: string; name: ComponentChildren; measures: Measures; extra: string[] }[];
}) {
  return (
    <FiguresTable
      name={id}
      headings={[first, t('stats.time'), t('stats.inferred'), t('stats.pages'), ...extra]}
      rows={rows.map((row) => ({
        key: row.key,
        heading: row.name,
        cells: [
          formatDuration(row.measures.duration.totalMs),
          formatDuration(row.measures.duration.inferredMs),
          formatCount(row.measures.pagesRead),
          ...row.extra,
        ],
      }))}
    />
  );
}
