import { memo, useCallback, useEffect, useMemo, useRef } from 'react';
import { incidentPlotLines, type ChartIncident } from '@yield/charts';
import { chartOptions, dailyAxis, Highcharts, HighchartsReact } from '@yield/charts/highcharts';
import { colors } from '@yield/platform';
import { formatApr, formatLocaleDate, formatTvl, formatTvlTick } from '@yield/ui';

export type HistoryKind = 'apr' | 'tvl';

/** A day marked on the chart with a vertical line (a detected warning opening or closing). */
export interface ChartMark {
  timestamp: number;
  label: string;
  /** A closing is drawn grey and dotted, an opening red and dashed. */
  closed: boolean;
}

export interface HistoryChartProps {
  kind: HistoryKind;
  /** [timestamp ms, value] pairs, oldest first. Empty draws an empty chart (the caller overlays N/A). */
  points: [number, number][];
  height?: number;
  /** The source's incidents, marked on their date (those outside the range are not drawn). */
  incidents?: readonly ChartIncident[];
  /** Detected warnings' opening and closing days. */
  marks?: readonly ChartMark[];
}

const NO_MARKS: readonly ChartMark[] = [];

function markPlotLine(m: ChartMark): Highcharts.XAxisPlotLinesOptions {
  return {
    value: m.timestamp,
    color: m.closed ? colors.chartMuted : colors.danger,
    dashStyle: m.closed ? 'Dot' : 'Dash',
    width: 1,
    zIndex: 3,
    label: { text: m.label, style: { fontSize: '10px' } },
  };
}

const SERIES_NAME: Record<HistoryKind, string> = { apr: 'APR', tvl: 'TVL' };
/** APR in the primary colour, TVL in green, on every strategy page. */
const SERIES_COLOR: Record<HistoryKind, string> = { apr: colors.primary, tvl: colors.great };

/** Distance between two neighbouring ticks (0 when there is only one). */
function tickStep(positions: readonly number[] | undefined): number {
  return positions && positions.length > 1 ? Math.abs(positions[1]! - positions[0]!) : 0;
}

function formatValue(kind: HistoryKind, value: number): string {
  return kind === 'apr' ? formatApr(value) : formatTvl(value);
}

/**
 * APR or TVL history as a line chart: x the locale date, y percent or compact dollars.
 *
 * The chart is created empty and its points are set in the next task: creating a chart and
 * drawing its series in one go is a single long task (~120 ms on the first chart of a page on a
 * busy 2-core machine); split, each half stays near the 50 ms a task should take.
 */
const NO_INCIDENTS: readonly ChartIncident[] = [];

function HistoryChart({
  kind,
  points,
  height = 300,
  incidents = NO_INCIDENTS,
  marks = NO_MARKS,
}: HistoryChartProps) {
  const chartRef = useRef<Highcharts.Chart | null>(null);
  const pointsRef = useRef(points);
  pointsRef.current = points;

  const options = useMemo<Highcharts.Options>(
    () =>
      chartOptions({
        chart: { height, type: 'line' },
        legend: { enabled: false },
        xAxis: {
          ...dailyAxis(formatLocaleDate),
          plotLines: [
            ...incidentPlotLines(incidents, { color: colors.danger }),
            ...marks.map(markPlotLine),
          ],
        },
        yAxis: {
          title: { text: undefined },
          // A flat rate (a governance-set savings rate) still gets a readable axis around it.
          minRange: kind === 'apr' ? 0.5 : undefined,
          labels: {
            formatter(this: Highcharts.AxisLabelsFormatterContextObject) {
              const value = Number(this.value);
              return kind === 'apr'
                ? formatApr(value)
                : formatTvlTick(value, tickStep(this.axis.tickPositions));
            },
          },
        },
        tooltip: {
          formatter(this: Highcharts.Point) {
            return `${formatLocaleDate(Number(this.x))}<br/><b>${SERIES_NAME[kind]}: ${formatValue(kind, Number(this.y))}</b>`;
          },
        },
        plotOptions: {
          // Markers only while points are at least 3 radii (7.5 px) apart: a month on a phone, not
          // a quarter on a desktop.
          series: {
            animation: false,
            marker: { enabled: undefined, enabledThreshold: 3, radius: 2.5 },
          },
        },
        series: [
          {
            type: 'line',
            name: SERIES_NAME[kind],
            data: [],
            color: SERIES_COLOR[kind],
            lineWidth: 2,
          },
        ],
      }),
    [kind, height, incidents, marks],
  );

  const setPoints = useCallback((chart: Highcharts.Chart) => {
    chart.series[0]?.setData(pointsRef.current, true, false, false);
  }, []);

  useEffect(() => {
    const timer = setTimeout(() => {
      if (chartRef.current) setPoints(chartRef.current);
    }, 0);
    return () => clearTimeout(timer);
    // New options (incidents or warnings arrived) replace the series' points too: set them again.
  }, [points, options, setPoints]);

  return (
    <HighchartsReact
      highcharts={Highcharts}
      options={options}
      callback={(chart: Highcharts.Chart) => {
        chartRef.current = chart;
      }}
    />
  );
}

// Memoised: a parent re-render with the same data must not make Highcharts redraw the chart.
export default memo(HistoryChart);
