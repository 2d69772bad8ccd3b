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
import { Heatmap } from './heatmap';
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
  periodLabel,
  periodName,
  periodsOfYear,
  readingYears,
  shortDayName,
  yearWindow,
} from './shape';
import './statistics.css';

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
      <div class="toolbar">
        <label class="stats-year">
          <span>{t('stats.year')}</span>
          <select
            class="select"
            value={String(year)}
            onChange={(event) => onYear(Number((event.currentTarget as HTMLSelectElement).value))}
            data-year-select
          >
            {years.map((option) => (
              <option key={option} value={String(option)}>
                {option}
              </option>
            ))}
          </select>
        </label>
      </div>
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
              <section class="card stats__periods" aria-labelledby="stats-periods">
                <div class="stats__periods-head">
                  <h2 id="stats-periods">{t('stats.periods')}</h2>
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
                </div>
                {granularity === 'month' ? (
                  <Async state={months}>
                    {(loaded) => <YearPeriodCharts year={year} granularity="month" stats={loaded} />}
                  </Async>
                ) : (
                  <WeekCharts year={year} load={load} />
                )}
              </section>
              <section class="card">
                <Async state={months}>{(loaded) => <FinishedChart year={year} stats={loaded} />}</Async>
              </section>
              <div class="stats__lists">
                <section class="card" aria-labelledby="stats-series">
                  <h2 id="stats-series">{t('stats.topSeries')}</h2>
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
                </section>
                <section class="card" aria-labelledby="stats-authors">
                  <h2 id="stats-authors">{t('stats.topAuthors')}</h2>
                  <RankedList
                    id="authors"
                    empty={t('stats.noAuthors')}
                    items={stats.authors.map((entry) => ({ key: entry.name, ...entry }))}
                  />
                </section>
                <section class="card" aria-labelledby="stats-formats">
                  <h2 id="stats-formats">{t('stats.formats')}</h2>
                  <RankedList
                    id="formats"
                    empty={t('stats.review.none')}
                    items={stats.formats.map((entry) => ({
                      key: entry.format,
                      name: entry.format.toUpperCase(),
                      ...entry,
                    }))}
                  />
                </section>
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
    <section class="card review" aria-labelledby="stats-review" data-year-review>
      <h2 id="stats-review">{t('stats.review', { year })}</h2>
      <dl class="review__facts">
        <div data-fact="time">
          <dt>{t('stats.review.time')}</dt>
          <dd>
            <strong>{formatDuration(summary.duration.totalMs)}</strong>
            {summary.duration.inferredMs > 0 && (
              <span class="muted">
                {' '}
                {t('stats.ofWhichEstimated', { inferred: formatDuration(summary.duration.inferredMs) })}
              </span>
            )}
          </dd>
        </div>
        <div data-fact="finished">
          <dt>{t('stats.review.finished')}</dt>
          <dd>
            <strong>{formatCount(summary.booksFinished)}</strong>
          </dd>
        </div>
        <div data-fact="started">
          <dt>{t('stats.review.started')}</dt>
          <dd>
            <strong>{formatCount(summary.booksStarted)}</strong>
          </dd>
        </div>
        <div data-fact="pages">
          <dt>{t('stats.review.pages')}</dt>
          <dd>
            <strong>{formatCount(summary.pagesRead)}</strong>
          </dd>
        </div>
        <div data-fact="streak">
          <dt>{t('stats.review.streak')}</dt>
          <dd>
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
          </dd>
        </div>
        <div data-fact="busiest">
          <dt>{t('stats.review.busiest')}</dt>
          <dd>
            {busiest ? (
              <>
                <strong>{formatDuration(busiest.duration.totalMs)}</strong>{' '}
                <span class="muted">{dayName(busiest.day)}</span>
              </>
            ) : (
              t('stats.review.none')
            )}
          </dd>
        </div>
        <div data-fact="top-series">
          <dt>{t('stats.review.topSeries')}</dt>
          <dd>
            {top ? (
              <>
                <strong>{top.seriesName ?? t('stats.unnamedSeries')}</strong>{' '}
                <span class="muted">{formatDuration(top.duration.totalMs)}</span>
              </>
            ) : (
              t('stats.review.none')
            )}
          </dd>
        </div>
      </dl>
    </section>
  );
}

function FinishedChart({ year, stats }: { year: number; stats: ReadingStats }) {
  const rows = periodsOfYear(year, 'month', stats.periods);
  const finished = stats.summary.booksFinished;
  return (
    <BarChart
      id="finished-month"
      heading="h2"
      caption={t('stats.finishedPerMonth')}
      labels={rows.map((row) => periodLabel(row.bucket, 'month'))}
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
    <section class="card" aria-labelledby="stats-devices" data-devices>
      <h2 id="stats-devices">{t('stats.devices')}</h2>
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
    </section>
  );
}

function PrivacyCard({ onDeleted }: { onDeleted: () => void }) {
  const preferences = useAsync((signal) => get<Preferences>('/user/preferences', { signal }), []);
  const [error, setError] = useState<unknown>(null);
  const [deleted, setDeleted] = useState(false);
  const recording = preferences.data?.['stats.recording'] ?? true;

  async function setRecording(value: boolean) {
    setError(null);
    try {
      await put('/user/preferences/stats.recording', { value });
      if (preferences.data) preferences.set({ ...preferences.data, 'stats.recording': value });
    } catch (failure) {
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
    <section class="card stats__privacy" aria-labelledby="stats-privacy" data-privacy>
      <h2 id="stats-privacy">{t('stats.privacy')}</h2>
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
    </section>
  );
}
