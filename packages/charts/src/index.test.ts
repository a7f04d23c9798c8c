// The kit's main entry is imported by components on a page's critical path: it must never pull
// Highcharts in (that belongs to `@yield/charts/highcharts`, loaded with the chart modules).
vi.mock('highcharts', () => {
  throw new Error('@yield/charts imported Highcharts');
});
vi.mock('highcharts-react-official', () => {
  throw new Error('@yield/charts imported highcharts-react-official');
});

describe('@yield/charts', () => {
  it('loads without Highcharts', async () => {
    const kit = await import('./index.ts');
    expect(typeof kit.useDrawWhenNear).toBe('function');
  });
});
