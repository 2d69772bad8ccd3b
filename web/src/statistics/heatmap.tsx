/**
 * The year's calendar of reading days, GitHub-style: a column per week, a row per weekday (Monday first, as the
 * API's weeks), each day shaded by its share of the busiest day's time. Our own SVG: Chartist has no calendar,
 * and the packages that do cost far more than this file (README, Design notes). Hovering a day names it with its
 * time; the picture is one image whose label sums the year up, and the days' numbers are in the table below it.
 * The weekday labels are a column of their own beside the scrolling grid, so on a phone, where the grid scrolls
 * sideways, they stay in view and every row keeps its name.
 */
import { useLayoutEffect, useRef } from 'preact/hooks';
import { t } from '../i18n';
import { NumbersDisclosure } from './bar-chart';
import { allLabels, periodAxis } from './period-axis';
import { type Calendar, busiestDay, dayKey, dayName, formatDuration, shortDayName } from './shape';

/** Drawn at its own size in CSS pixels (not scaled to the card): the weekday column beside it must line up. */
const CELL = 12;
const STEP = 15;
/** The weekday column's width. */
const LEFT = 30;
const TOP = 16;
const weekdayName = new Intl.DateTimeFormat(undefined, { weekday: 'short' });
/** 2 March 2026 was a Monday: the weekday labels' reference week. */
const weekdayLabel = (weekday: number) => weekdayName.format(new Date(2026, 2, 2 + weekday));

export function Heatmap({ calendar }: { calendar: Calendar }) {
  const scroller = useRef<HTMLElement>(null);
  // On a narrow screen the grid scrolls sideways: start at its end, the latest weeks.
  useLayoutEffect(() => {
    const element = scroller.current;
    if (element) element.scrollLeft = element.scrollWidth;
  }, [calendar.year]);

  const read = calendar.days.filter((day) => day.level > 0);
  const busiest = busiestDay(calendar.days);
  const summary = busiest
    ? t('stats.calendar.summary', {
        days: read.length,
        year: calendar.year,
        busiest: dayName(busiest.day),
        time: formatDuration(busiest.duration.totalMs),
      })
    : t('stats.calendar.summaryNoTime', { days: read.length, year: calendar.year });
  const width = calendar.weeks * STEP;
  const height = TOP + 7 * STEP;
  // Labelled as the charts' months are: the first with its year.
  const monthLabels = allLabels(
    periodAxis(
      calendar.months.map(({ month }) => dayKey(new Date(calendar.year, month, 1))),
      'month',
    ),
    calendar.months.length,
  );

  return (
    <figure class="chart heatmap" data-chart="calendar">
      <figcaption class="chart__caption">
        <h2>{t('stats.calendar')}</h2>
      </figcaption>
      <div class="heatmap__body">
        {/* The cells' own titles name their days: the column is for the eye. */}
        <svg
          class="heatmap__weekdays"
          viewBox={`0 0 ${LEFT} ${height}`}
          width={LEFT}
          height={height}
          aria-hidden="true"
        >
          {[0, 2, 4].map((weekday) => (
            <text key={weekday} class="heatmap__label" x={0} y={TOP + weekday * STEP + CELL - 2} data-weekday={weekday}>
              {weekdayLabel(weekday)}
            </text>
          ))}
        </svg>
        <section
          ref={scroller}
          class="heatmap__scroll"
          aria-label={t('stats.calendar.region', { year: calendar.year })}
          // biome-ignore lint/a11y/noNoninteractiveTabindex: wider than a phone, the grid scrolls, and a scrolling region must be reachable by keyboard (WCAG 2.1.1, axe's scrollable-region-focusable)
          tabIndex={0}
        >
          <svg
            class="heatmap__grid"
            viewBox={`0 0 ${width} ${height}`}
            width={width}
            height={height}
            role="img"
            aria-label={summary}
          >
            {calendar.months.map(({ month, week }, index) => (
              <text key={month} class="heatmap__label" x={week * STEP} y={TOP - 5} data-month={month}>
                {monthLabels[index]}
              </text>
            ))}
            {calendar.days.map((day) => (
              <rect
                key={day.day}
                class={`heat heat--${day.level}`}
                x={day.week * STEP}
                y={TOP + day.weekday * STEP}
                width={CELL}
                height={CELL}
                rx={2}
                data-day={day.day}
                data-level={day.level}
              >
                <title>
                  {day.level === 0
                    ? t('stats.calendar.empty', { day: dayName(day.day) })
                    : t('stats.calendar.cell', {
                        day: dayName(day.day),
                        time: formatDuration(day.duration.totalMs),
                        pages: day.pagesRead,
                      })}
                </title>
              </rect>
            ))}
          </svg>
        </section>
      </div>
      <div class="heatmap__legend" aria-hidden="true">
        {t('stats.calendar.less')}
        {[0, 1, 2, 3, 4].map((level) => (
          <svg key={level} aria-hidden="true" width={CELL} height={CELL} viewBox={`0 0 ${CELL} ${CELL}`}>
            <rect class={`heat heat--${level}`} width={CELL} height={CELL} rx={2} />
          </svg>
        ))}
        {t('stats.calendar.more')}
      </div>
      <p class="chart__summary">{summary}</p>
      <NumbersDisclosure
        label={t('stats.calendar')}
        numbers={{
          headings: [
            t('stats.calendar.day'),
            t('stats.time'),
            t('stats.inferred'),
            t('stats.pages'),
            t('stats.sessions'),
          ],
          rows: read.map((day) => ({
            key: day.day,
            heading: shortDayName(day.day),
            cells: [
              formatDuration(day.duration.totalMs),
              formatDuration(day.duration.inferredMs),
              String(day.pagesRead),
              String(day.sessions),
            ],
          })),
        }}
      />
    </figure>
  );
}
