import { niceStep } from './nice-ticks.ts';
import { baseChartOptions, chartOptions, dailyAxis, Highcharts } from './highcharts.ts';

describe('the Highcharts setup', () => {
  it('gives every chart the base options and merges its own chart entries into them', () => {
    const options = chartOptions({
      chart: { type: 'pie', height: 300 },
      legend: { enabled: true },
    });
    expect(options).toMatchObject({
      credits: { enabled: false },
      accessibility: { enabled: false },
      palette: { injectCSS: false, colorScheme: 'light' },
      legend: { enabled: true },
      chart: {
        type: 'pie',
        height: 300,
        backgroundColor: 'transparent',
        style: { fontFamily: 'inherit' },
        spacing: [12, 8, 8, 8],
      },
    });
    // The base itself is never changed by a chart.
    expect(baseChartOptions.chart).not.toHaveProperty('type');
  });

  it('writes the days of a daily axis with the formatter it is given', () => {
    const axis = dailyAxis((timestamp) => `day ${timestamp}`);
    expect(axis).toMatchObject({ type: 'datetime', tickPixelInterval: 110 });
    const context = { value: 86_400_000 } as Highcharts.AxisLabelsFormatterContextObject;
    expect(axis.labels!.formatter!.call(context, context)).toBe('day 86400000');
  });

  it('lets a chart replace a base chart entry', () => {
    expect(chartOptions({ chart: { spacing: [8, 4, 8, 4] } }).chart?.spacing).toEqual([8, 4, 8, 4]);
  });
});

describe('round ticks on every value axis', () => {
  const positioner = (axis: Highcharts.XAxisOptions | Highcharts.YAxisOptions | undefined) =>
    axis?.tickPositioner;
  const tick = (
    axis: Highcharts.XAxisOptions | Highcharts.YAxisOptions | undefined,
    min: number,
    max: number,
    len = 300,
  ) => axis!.tickPositioner!.call({ len, options: {} } as unknown as Highcharts.Axis, min, max);

  it('gives each value axis round ticks and no aligned ticks, keeping date axes and set ticks', () => {
    const options = chartOptions({
      chart: { type: 'line' },
      xAxis: dailyAxis(String),
      yAxis: [{ title: { text: 'APR' } }, { opposite: true }, { tickPositions: [0, 1, 2] }],
    });
    expect(options.chart?.alignTicks).toBe(false);
    expect(positioner(options.xAxis as Highcharts.XAxisOptions)).toBeUndefined();
    const [apr, tvl, fixed] = options.yAxis as Highcharts.YAxisOptions[];
    expect(tick(apr, 0, 8.67)).toEqual([0, 2, 4, 6, 8, 10]);
    expect(tick(tvl, 1.2e9, 3.9e9)).toEqual([1e9, 1.5e9, 2e9, 2.5e9, 3e9, 3.5e9, 4e9]);
    expect(apr!.title).toEqual({ text: 'APR' });
    expect(fixed!.tickPositioner).toBeUndefined();
    expect(fixed!.tickPositions).toEqual([0, 1, 2]);
  });

  it('gives axes a chart leaves to the defaults round ticks too', () => {
    const options = chartOptions({ chart: { type: 'scatter' } });
    expect(tick(options.xAxis as Highcharts.XAxisOptions, 0, 6.51)).toEqual([0, 2, 4, 6, 8]);
    expect(tick(options.yAxis as Highcharts.YAxisOptions, 0, 2.17)).toEqual([
      0, 0.5, 1, 1.5, 2, 2.5,
    ]);
  });

  it('Highcharts draws both value axes of a two-axis chart at round values, the data filling the plot', () => {
    const container = document.createElement('div');
    document.body.append(container);
    const chart = Highcharts.chart(
      container,
      chartOptions({
        chart: { type: 'line', width: 600, height: 400, animation: false },
        yAxis: [{}, { opposite: true }],
        series: [
          { type: 'line', data: [0.4, 3.3, 8.67, 5.1], yAxis: 0 },
          { type: 'line', data: [1.23e9, 3.91e9, 2.2e9, 2.9e9], yAxis: 1 },
        ],
      }),
    );
    for (const [axis, low, high] of [
      [chart.yAxis[0]!, 0.4, 8.67],
      [chart.yAxis[1]!, 1.23e9, 3.91e9],
    ] as const) {
      const ticks = axis.tickPositions!;
      expect(ticks.length).toBeGreaterThanOrEqual(3);
      const step = ticks[1]! - ticks[0]!;
      expect(niceStep(step)).toBeCloseTo(step, 6);
      for (const value of ticks) {
        expect(Math.abs(value / step - Math.round(value / step))).toBeLessThan(1e-9);
      }
      expect(ticks[0]).toBeLessThanOrEqual(low);
      expect(ticks.at(-1)).toBeGreaterThanOrEqual(high);
      // The data still fills most of the plot.
      expect((high - low) / (ticks.at(-1)! - ticks[0]!)).toBeGreaterThan(0.5);
    }
    chart.destroy();
    container.remove();
  });
});
