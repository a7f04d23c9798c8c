import { baseChartOptions, chartOptions, dailyAxis, type Highcharts } from './highcharts.ts';

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
