/**
 * Statistics (issue 35 point 3): what the signed-in person read, year by year — a review of the year, a calendar
 * of reading days, time and pages per week or month (measured time apart from estimated), books finished per
 * month, top series and authors, the devices read on (each can be renamed) — and their control over it: pause
 * recording, download the sessions, delete them all. Every figure is `GET /reading-stats` for the calendar year
 * in the browser's time zone; the screen is a lazy chunk, so Chartist and this code load only here.
 */
import { useState } from 'preact/hooks';
import { apiUrl, del, get, put } from '../api/client';
import type { Preferences, ReadingCoverage, ReadingDevice, ReadingStats } from '../api/types';
import { AdminTable } from '../components/admin-table';
import { Async, ErrorMessage, useAsync } from '../components/async';
import { Main } from '../components/page-main';
import { formatDateTime } from '../i18n/format';
import { t } from '../i18n';
import { BarChart } from './bar-chart';
import { Fact, Facts, TimeFact } from './facts';
import { Heatmap } from './heatmap';
import { periodAxis } from './period-axis';
import { PeriodCharts } from './period-charts';
import { RankedList } from './ranked-list';
import {
  browserTimeZone,
  busiestDay,
  calendarOf,
  dayName,
  formatCount,
  formatDuration,
  longestStreak,
  type PeriodGranularity,
  periodName,
  periodsOfYear,
  readingYears,
  shortDayName,
  yearWindow,
} from './shape';
import { StatsCard } from './stats-card';
import './statistics.css';
import { WindowChooser } from './window-chooser';

/** How many series and authors the year's lists show. */
const TOP = 5;

export function StatisticsScreen() {
  const [version, setVersion] = useState(0);
  const coverage = useAsync((signal) => get<ReadingCoverage>('/reading-stats/coverage', { signal }), [version]);
  const [chosenYear, setChosenYear] = useState<number | null>(null);
  const years = coverage.data ? readingYears(coverage.data) : [];
  const year = chosenYear !== null && years.includes(chosenYear) ? chosenYear : years[0];
  return (
    <Main title={t('stats.title')}>
      <h1>{t('stats.title')}</h1>
      <Async state={coverage}>
        {() =>
          year === undefined ? (
            <EmptyState />
          ) : (
            <YearStatistics key={year} year={year} years={years} onYear={setChosenYear} />
          )
        }
      </Async>
      <PrivacyCard onDeleted={() => setVersion((value) => value + 1)} />
    </Main>
  );
}

function EmptyState() {
  return (
    <section class="card stats-empty" data-stats-empty>
      <h2>{t('stats.empty.title')}</h2>
      <p>{t('stats.empty.intro')}</p>
      <h3>{t('stats.empty.howTitle')}</h3>
      <ul>
        <li>{t('stats.empty.app')}</li>
        <li>{t('stats.empty.koreader')}</li>
        <li>{t('stats.empty.kobo')}</li>
        <li>{t('stats.empty.apps')}</li>
      </ul>
    </section>
  );
}

type StatsLoad = (granularity: 'day' | PeriodGranularity, signal: AbortSignal) => Promise<ReadingStats>;

function YearStatistics({ year, years, onYear }: { year: number; years: number[]; onYear: (year: number) => void }) {
  const { from, to } = yearWindow(year);
  const tz = browserTimeZone();
  const load: StatsLoad = (granularity, signal) =>
    get<ReadingStats>('/reading-stats', { query: { from, to, tz, granularity, seriesLimit: TOP }, signal });
  const days = useAsync((signal) => load('day', signal), [year]);
  const months = useAsync((signal) => load('month', signal), [year]);
  const [granularity, setGranularity] = useState<PeriodGranularity>('month');

  return (
    <div class="stats" data-stats-window data-from={from} data-to={to} data-tz={tz}>
      <WindowChooser
        value={String(year)}
        options={years.map((option) => ({ value: String(option), label: String(option) }))}
        onChoose={(value) => onYear(Number(value))}
        marker="year-select"
      />
      <Async state={days}>
        {(stats) =>
          stats.summary.sessions === 0 ? (
            <p class="notice">{t('stats.nothingInYear', { year })}</p>
          ) : (
            <>
              <YearInReview year={year} stats={stats} />
              <section class="card">
                <Heatmap calendar={calendarOf(year, stats.periods)} />
              </section>
              <StatsCard
                id="stats-periods"
                title={t('stats.periods')}
                tools={
                  <fieldset class="segmented">
                    <legend class="visually-hidden">{t('stats.periods')}</legend>
                    {(['week', 'month'] as const).map((option) => (
                      <button
                        key={option}
                        type="button"
                        class="button button--small"
                        aria-pressed={granularity === option}
                        onClick={() => setGranularity(option)}
                        data-granularity={option}
                      >
                        {t(option === 'week' ? 'stats.byWeek' : 'stats.byMonth')}
                      </button>
                    ))}
                  </fieldset>
                }
              >
                {granularity === 'month' ? (
                  <Async state={months}>
                    {(loaded) => <YearPeriodCharts year={year} granularity="month" stats={loaded} />}
                  </Async>
                ) : (
                  <WeekCharts year={year} load={load} />
                )}
              </StatsCard>
              <section class="card">
                <Async state={months}>{(loaded) => <FinishedChart year={year} stats={loaded} />}</Async>
              </section>
              <div class="stats__lists">
                <StatsCard id="stats-series" title={t('stats.topSeries')}>
                  <RankedList
                    id="series"
                    empty={t('stats.review.none')}
                    items={stats.series.map((entry) => ({
                      key: entry.seriesId,
                      name: entry.seriesName ?? t('stats.unnamedSeries'),
                      href: entry.seriesName ? `/series/${entry.seriesId}` : undefined,
                      ...entry,
                    }))}
                  />
                </StatsCard>
                <StatsCard id="stats-authors" title={t('stats.topAuthors')}>
                  <RankedList
                    id="authors"
                    empty={t('stats.noAuthors')}
                    items={stats.authors.map((entry) => ({ key: entry.name, ...entry }))}
                  />
                </StatsCard>
                <StatsCard id="stats-formats" title={t('stats.formats')}>
                  <RankedList
                    id="formats"
                    empty={t('stats.review.none')}
                    items={stats.formats.map((entry) => ({
                      key: entry.format,
                      name: entry.format.toUpperCase(),
                      ...entry,
                    }))}
                  />
                </StatsCard>
              </div>
              <Devices devices={stats.devices} onRenamed={days.reload} />
            </>
          )
        }
      </Async>
    </div>
  );
}

function WeekCharts({ year, load }: { year: number; load: StatsLoad }) {
  const weeks = useAsync((signal) => load('week', signal), [year]);
  return <Async state={weeks}>{(loaded) => <YearPeriodCharts year={year} granularity="week" stats={loaded} />}</Async>;
}

function YearPeriodCharts({
  year,
  granularity,
  stats,
}: {
  year: number;
  granularity: PeriodGranularity;
  stats: ReadingStats;
}) {
  return (
    <PeriodCharts
      granularity={granularity}
      rows={periodsOfYear(year, granularity, stats.periods)}
      duration={stats.summary.duration}
      windowName={String(year)}
    />
  );
}

function YearInReview({ year, stats }: { year: number; stats: ReadingStats }) {
  const calendar = calendarOf(year, stats.periods);
  const streak = longestStreak(calendar.days);
  const busiest = busiestDay(calendar.days);
  const top = stats.series[0];
  const { summary } = stats;
  return (
    <StatsCard id="stats-review" title={t('stats.review', { year })} class="review" marker="year-review">
      <Facts>
        <TimeFact duration={summary.duration} />
        <Fact name="finished" label={t('stats.review.finished')}>
          <strong>{formatCount(summary.booksFinished)}</strong>
        </Fact>
        <Fact name="started" label={t('stats.review.started')}>
          <strong>{formatCount(summary.booksStarted)}</strong>
        </Fact>
        <Fact name="pages" label={t('stats.review.pages')}>
          <strong>{formatCount(summary.pagesRead)}</strong>
        </Fact>
        <Fact name="streak" label={t('stats.review.streak')}>
          {streak ? (
            <>
              <strong>{t('stats.review.streakDays', { count: streak.days })}</strong>{' '}
              <span class="muted">
                {streak.days > 1
                  ? t('stats.review.streakRange', { from: shortDayName(streak.from), to: shortDayName(streak.to) })
                  : shortDayName(streak.from)}
              </span>
            </>
          ) : (
            t('stats.review.none')
          )}
        </Fact>
        <Fact name="busiest" label={t('stats.review.busiest')}>
          {busiest ? (
            <>
              <strong>{formatDuration(busiest.duration.totalMs)}</strong>{' '}
              <span class="muted">{dayName(busiest.day)}</span>
            </>
          ) : (
            t('stats.review.none')
          )}
        </Fact>
        <Fact name="top-series" label={t('stats.review.topSeries')}>
          {top ? (
            <>
              <strong>{top.seriesName ?? t('stats.unnamedSeries')}</strong>{' '}
              <span class="muted">{formatDuration(top.duration.totalMs)}</span>
            </>
          ) : (
            t('stats.review.none')
          )}
        </Fact>
      </Facts>
    </StatsCard>
  );
}

function FinishedChart({ year, stats }: { year: number; stats: ReadingStats }) {
  const rows = periodsOfYear(year, 'month', stats.periods);
  const buckets = rows.map((row) => row.bucket);
  const finished = stats.summary.booksFinished;
  return (
    <BarChart
      id="finished-month"
      heading="h2"
      caption={t('stats.finishedPerMonth')}
      keys={buckets}
      axis={periodAxis(buckets, 'month')}
      integer
      series={[{ name: t('stats.finished'), values: rows.map((row) => row.booksFinished), tone: 'plain' }]}
      summary={t('stats.finishedSummary', { count: finished, year })}
      numbers={{
        headings: [t('stats.month'), t('stats.finished')],
        rows: rows.map((row) => ({
          key: row.bucket,
          heading: periodName(row.bucket, 'month'),
          cells: [formatCount(row.booksFinished)],
        })),
      }}
    />
  );
}

function deviceLabel(device: ReadingDevice): string {
  return device.deviceName ?? device.deviceId;
}

function Devices({ devices, onRenamed }: { devices: ReadingDevice[]; onRenamed: () => void }) {
  const [editing, setEditing] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>(null);

  async function rename(device: ReadingDevice) {
    setError(null);
    try {
      const trimmed = name.trim();
      await put(`/reading-devices/${encodeURIComponent(device.deviceId)}`, { name: trimmed === '' ? null : trimmed });
      setEditing(null);
      onRenamed();
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <StatsCard id="stats-devices" title={t('stats.devices')} marker="devices">
      <p class="muted">{t('stats.devicesHint')}</p>
      <ErrorMessage error={error} />
      <AdminTable
        columns={[t('stats.device'), t('stats.measured'), t('stats.inferred'), t('stats.pages'), t('stats.lastRead')]}
      >
        {devices.map((device) => {
          const label = deviceLabel(device);
          return (
            <tr key={device.deviceId} data-device={device.deviceId}>
              <td>
                {editing === device.deviceId ? (
                  <form
                    class="device-rename"
                    onSubmit={(event) => {
                      event.preventDefault();
                      void rename(device);
                    }}
                  >
                    <input
                      class="field__input"
                      aria-label={t('stats.deviceName', { name: label })}
                      aria-describedby="device-name-hint"
                      value={name}
                      maxLength={100}
                      onInput={(event) => setName((event.currentTarget as HTMLInputElement).value)}
                      onKeyDown={(event) => {
                        if (event.key === 'Escape') setEditing(null);
                      }}
                      // biome-ignore lint/a11y/noAutofocus: the field the Rename button just opened
                      autoFocus
                    />
                    <button type="submit" class="button button--small button--primary">
                      {t('app.save')}
                    </button>
                    <button type="button" class="button button--small" onClick={() => setEditing(null)}>
                      {t('app.cancel')}
                    </button>
                    <span id="device-name-hint" class="muted device-rename__hint">
                      {t('stats.deviceNameHint')}
                    </span>
                  </form>
                ) : (
                  <span data-device-name>{label}</span>
                )}
              </td>
              <td data-device-measured>{formatDuration(device.duration.measuredMs)}</td>
              <td data-device-inferred>{formatDuration(device.duration.inferredMs)}</td>
              <td>{formatCount(device.pagesRead)}</td>
              <td>{formatDateTime(device.lastReadAt)}</td>
              <td>
                {editing !== device.deviceId && (
                  <button
                    type="button"
                    class="button button--small"
                    aria-label={t('stats.renameDevice', { name: label })}
                    onClick={() => {
                      setName(device.deviceName ?? '');
                      setEditing(device.deviceId);
                    }}
                  >
                    {t('stats.rename')}
                  </button>
                )}
              </td>
            </tr>
          );
        })}
      </AdminTable>
    </StatsCard>
  );
}

function PrivacyCard({ onDeleted }: { onDeleted: () => void }) {
  const preferences = useAsync((signal) => get<Preferences>('/user/preferences', { signal }), []);
  const [error, setError] = useState<unknown>(null);
  const [deleted, setDeleted] = useState(false);
  const recording = preferences.data?.['stats.recording'] ?? true;

  async function setRecording(value: boolean) {
    setError(null);
    const before = preferences.data;
    // Shown at once — a controlled checkbox would otherwise spring back until the server answers — and put back
    // if the server refuses.
    if (before) preferences.set({ ...before, 'stats.recording': value });
    try {
      await put('/user/preferences/stats.recording', { value });
    } catch (failure) {
      if (before) preferences.set(before);
      setError(failure);
    }
  }
  async function deleteAll() {
    if (!confirm(t('stats.deleteConfirm'))) return;
    setError(null);
    try {
      await del('/reading-sessions');
      setDeleted(true);
      onDeleted();
    } catch (failure) {
      setError(failure);
    }
  }

  return (
    <StatsCard id="stats-privacy" title={t('stats.privacy')} class="stats__privacy" marker="privacy">
      <ErrorMessage error={error} />
      <label class="checkbox">
        <input
          type="checkbox"
          checked={recording}
          disabled={!preferences.data}
          onChange={(event) => void setRecording((event.currentTarget as HTMLInputElement).checked)}
          data-recording
        />
        {t('stats.recording')}
      </label>
      <p class={recording ? 'muted' : 'notice'} role="status" data-recording-state={recording ? 'on' : 'paused'}>
        {recording ? t('stats.recordingOn') : t('stats.recordingPaused')}
      </p>
      <div class="toolbar">
        <span>{t('stats.export')}</span>
        <a
          class="button button--small"
          href={apiUrl('/reading-sessions/export', { format: 'json' })}
          download="reading-sessions.json"
          aria-label={t('stats.exportJsonLabel')}
          data-export="json"
        >
          {t('stats.exportJson')}
        </a>
        <a
          class="button button--small"
          href={apiUrl('/reading-sessions/export', { format: 'csv' })}
          download="reading-sessions.csv"
          aria-label={t('stats.exportCsvLabel')}
          data-export="csv"
        >
          {t('stats.exportCsv')}
        </a>
      </div>
      <div class="toolbar">
        <button type="button" class="button button--danger" onClick={() => void deleteAll()} data-delete-stats>
          {t('stats.deleteAll')}
        </button>
        {deleted && (
          <span role="status" class="muted">
            {t('stats.deleted')}
          </span>
        )}
      </div>
    </StatsCard>
  );
}
