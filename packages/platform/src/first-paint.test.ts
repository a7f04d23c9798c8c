import { QueryClient } from '@tanstack/react-query';
import {
  FIRST_PAINT_DATA_ID,
  adoptFirstPaint,
  firstPaintOf,
  forgetFirstPaint,
} from './first-paint.ts';
import { queryKeys, settingsQuery, strategyContentQuery, strategiesQuery } from './queries.ts';

const settings = { siteTitle: 'Pigi', siteSlogan: 'Global Yield Leaderboard' };

function arrive(data: string) {
  document.head.innerHTML =
    `<title data-first-paint-head="">Risks | Pigi</title>` +
    `<meta data-first-paint-head="" name="description" content="d">` +
    `<meta name="viewport" content="width=device-width">` +
    `<script type="application/json" id="${FIRST_PAINT_DATA_ID}">${data}</script>`;
  document.body.innerHTML =
    '<div id="root"><div class="app"><div data-first-paint="mfe_content/RisksPage"><h1>Risks</h1></div></div></div>';
  return document.getElementById('root')!;
}

afterEach(() => {
  forgetFirstPaint();
  document.head.innerHTML = '';
  document.body.innerHTML = '';
});

describe('adoptFirstPaint', () => {
  it("seeds the settings it was rendered with, marked stale so they're fetched again", () => {
    const client = new QueryClient();
    adoptFirstPaint(arrive(JSON.stringify({ settings })), client);
    expect(client.getQueryData(settingsQuery.queryKey)).toEqual(settings);
    expect(client.getQueryState(settingsQuery.queryKey)?.dataUpdatedAt).toBe(1);
  });

  it("seeds the page's embedded API answers under their queries' keys, fresh", () => {
    const client = new QueryClient();
    const content = { slug: 'lido', name: 'Lido Finance' };
    const before = Date.now();
    adoptFirstPaint(
      arrive(
        JSON.stringify({
          settings,
          data: {
            '/api/strategy-content/lido': content,
            '/api/strategies': [{ id: 3 }],
            '/api/strategy-content/not-a-slug': { name: 'x' },
            '/api/unknown': 1,
          },
        }),
      ),
      client,
    );
    expect(client.getQueryData(strategyContentQuery('lido').queryKey)).toEqual(content);
    expect(client.getQueryData(strategiesQuery.queryKey)).toEqual([{ id: 3 }]);
    expect(
      client.getQueryState(strategyContentQuery('lido').queryKey)?.dataUpdatedAt,
    ).toBeGreaterThanOrEqual(before);
    // Only the paths a query reads are seeded.
    expect(
      client
        .getQueryCache()
        .getAll()
        .map((q) => q.queryKey),
    ).toEqual([queryKeys.settings, queryKeys.strategyContent('lido'), queryKeys.strategies]);
  });

  it("keeps each module's markup and hands the head over to the app", () => {
    adoptFirstPaint(arrive(JSON.stringify({ settings })), new QueryClient());
    expect(firstPaintOf('mfe_content/RisksPage')).toBe('<h1>Risks</h1>');
    expect(firstPaintOf('mfe_content/VaultPage')).toBeUndefined();
    expect(document.head.querySelector('[data-first-paint-head]')).toBeNull();
    expect(document.head.querySelector('meta[name="viewport"]')).not.toBeNull();
    forgetFirstPaint();
    expect(firstPaintOf('mfe_content/RisksPage')).toBeUndefined();
  });

  it('survives damaged data: no settings, the markup is still used', () => {
    const client = new QueryClient();
    adoptFirstPaint(arrive('{not json'), client);
    expect(client.getQueryData(settingsQuery.queryKey)).toBeUndefined();
    expect(firstPaintOf('mfe_content/RisksPage')).toBe('<h1>Risks</h1>');
  });

  it('does nothing on a page that arrived without a first paint', () => {
    document.body.innerHTML = '<div id="root"></div>';
    const client = new QueryClient();
    adoptFirstPaint(document.getElementById('root')!, client);
    expect(client.getQueryData(settingsQuery.queryKey)).toBeUndefined();
    expect(firstPaintOf('mfe_content/RisksPage')).toBeUndefined();
  });
});
