/**
 * A bar chart of the Statistics screens, drawn by Chartist (chosen by bundle size: README, Design notes) as SVG
 * that the stylesheet colours from the theme's custom properties. The drawing is hidden from assistive
 * technology; what it shows is said in a visible sentence and in a table of every bar's numbers, which a
 * "Show the numbers" disclosure opens for anyone, keyboard included.
 */
import { BarChart as ChartistBar } from 'chartist';
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { t } from '../i18n';
import { type FigureRow, FiguresTable } from './figures-table';
import type { AxisLabel } from './period-axis';

export interface ChartSeries {
  name: string;
  values: number[];
  /** The stylesheet's colour for it: measured time, estimated time, or a plain count. */
  tone: 'measured' | 'inferred' | 'plain';
}

export interface NumbersTable {
  headings: string[];
  rows: FigureRow[];
}

/** The least room between two written x labels' middles: "Sep", "Mar 30" at the charts' label size. */
const LABEL_ROOM_PX = 34;
/** A generous character's width at the labels' 12 px, for the longer labels that carry a year ("Nov 2025"). */
const LABEL_CHARACTER_PX = 7.5;
const LABEL_GAP_PX = 8;
/** The y axis's labels and the room kept on the right: the bars share what is left of the width. */
const Y_AXIS_PX = 44;
const PADDING = { top: 12, right: 4, bottom: 0, left: 0 };
const TONE_CLASS = { measured: 'chart-tone-measured', inferred: 'chart-tone-inferred', plain: 'chart-tone-plain' };

export function BarChart({
  id,
  caption,
  keys,
  axis,
  series,
  formatValue = String,
  integer = false,
  summary,
  numbers,
  legend = false,
  heading: Heading = 'h3',
}: {
  /** `data-chart`, for the tests. */
  id: string;
  caption: string;
  /** One a bar, in order (the periods' keys): the chart is drawn again when they change. */
  keys: string[];
  /** The words under the bars (period-axis.ts), each written where there is room since the last one. */
  axis: AxisLabel;
  /** Stacked, bottom first. */
  series: ChartSeries[];
  formatValue?: (value: number) => string;
  integer?: boolean;
  summary: ComponentChildren;
  numbers: NumbersTable;
  legend?: boolean;
  /** The caption is a heading: of its own card (h2) or below the card's (h3). */
  heading?: 'h2' | 'h3';
}) {
  const host = useRef<HTMLDivElement>(null);
  // Drawn again only when what it shows changes, not on every render of the screen.
  const drawn = JSON.stringify([keys, series]);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    let last: { index: number; text: string } | null = null;
    const chart = new ChartistBar(
      element,
      {
        labels: keys,
        series: series.map((entry) => ({ name: entry.name, data: entry.values, className: TONE_CLASS[entry.tone] })),
      },
      {
        stackBars: series.length > 1,
        height: '200px',
        chartPadding: PADDING,
        axisX: {
          showGrid: false,
          labelInterpolationFnc: (_value: unknown, index: number) => {
            // Called in order on every drawing, resizes included: a label is written only where there is room
            // since the previous one (twelve months on a phone get every other one). Which was written last
            // decides whether this one needs its year, and a label with a year needs more room.
            if (index === 0) last = null;
            const text = axis(index, last?.index ?? null);
            if (text === null) return null;
            const slot = (element.clientWidth - Y_AXIS_PX - PADDING.right) / Math.max(1, keys.length);
            if (last && (index - last.index) * slot < labelRoom(last.text, text)) return null;
            last = { index, text };
            return text;
          },
        },
        axisY: {
          offset: Y_AXIS_PX,
          onlyInteger: integer,
          scaleMinSpace: 32,
          labelInterpolationFnc: (value: unknown) => formatValue(Number(value)),
        },
      },
    );
    // Bars as wide as their slot allows (Chartist draws them 10 px wide whatever the chart's width).
    chart.on('draw', (event) => {
      if (event.type !== 'bar') return;
      const width = (event.chartRect.width() / Math.max(1, keys.length)) * 0.7;
      event.element.attr({ style: `stroke-width: ${Math.max(2, Math.min(32, width)).toFixed(1)}px` });
    });
    return () => {
      chart.detach();
      element.replaceChildren();
    };
  }, [drawn]);

  return (
    <figure class="chart" data-chart={id}>
      <figcaption class="chart__caption">
        <Heading>{caption}</Heading>
      </figcaption>
      {legend && (
        <ul class="chart__legend" aria-hidden="true">
          {series.map((entry) => (
            <li key={entry.name}>
              <span class={`chart__swatch ${TONE_CLASS[entry.tone]}`} />
              {entry.name}
            </li>
          ))}
        </ul>
      )}
      <div ref={host} class="chart__plot" aria-hidden="true" />
      <p class="chart__summary">{summary}</p>
      <NumbersDisclosure numbers={numbers} label={caption} />
    </figure>
  );
}

/** How far apart two labels' middles must be: half of each (they are centred on their bars) and a gap. */
function labelRoom(before: string, after: string): number {
  return Math.max(LABEL_ROOM_PX, ((before.length + after.length) / 2) * LABEL_CHARACTER_PX + LABEL_GAP_PX);
}

/** The table behind a chart, closed until asked for. */
export function NumbersDisclosure({ numbers, label }: { numbers: NumbersTable; label: string }) {
  return (
    <details class="chart__numbers">
      <summary>{t('stats.showNumbers')}</summary>
      <FiguresTable
        name="numbers"
        headings={numbers.headings}
        rows={numbers.rows}
        scrollLabel={t('stats.numbersOf', { chart: label })}
      />
    </details>
  );
}
