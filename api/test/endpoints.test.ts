import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  BaseRates,
  HealthReport,
  HistoryResponse,
  RiskBreakdown,
  SiteSettings,
  StrategyContent,
  StrategyMetrics,
  YieldSource,
} from '@yield/contract';
import { setup, type TestContext } from './helpers.ts';

let t: TestContext;
beforeAll(async () => {
  t = await setup();
});
afterAll(async () => {
  await t.cleanup();
});

const SOURCE_IDS = [3, 2, 4, 5, 6, 7, 8, 9, 11, 12, 13];
const DAY = 86_400_000;

function expectErrorBody(body: unknown, code: string) {
  expect(body).toMatchObject({ error: { code, message: expect.any(String) } });
  expect(JSON.stringify(body)).not.toMatch(/\bat .*\(.*:\d+:\d+\)/); // no stack frames
}

describe('GET /api/health', () => {
  it('reports every data file loaded', async () => {
    const res = await t.http.get('/api/health').expect(200);
    const body = res.body as HealthReport;
    expect(body.status).toBe('ok');
    expect(body.version).toBe('1.0.0');
    expect(Object.keys(body.files).sort()).toEqual(
      [
        'alerts.json',
        'costs.json',
        'history.json',
        'import-status.json',
        'invites.json',
        'liquidity.json',
        'mailing-list.json',
        'pools.json',
        'prices.json',
        'project-tiers.json',
        'settings.json',
        'sources.json',
        'strategy-content.json',
        'users.json',
      ].sort(),
    );
    for (const f of Object.values(body.files))
      expect(f).toMatchObject({ loaded: true, error: null, loadedAt: expect.any(String) });
    expect(res.headers['cache-control']).toBe('no-store');
  });
});

describe('GET /api/settings', () => {
  it('returns SiteSettings with the slogan, URLs, socials and sample marker', async () => {
    const res = await t.http
      .get('/api/settings')
      .expect(200)
      .expect('Content-Type', /application\/json/);
    const s = res.body as SiteSettings;
    expect(s.siteSlogan).toBe('Global Yield Leaderboard');
    expect(s.data).toEqual({ sample: true, asOf: '2026-11-21', stale: false });
    for (const key of [
      'premiumPurchaseForm',
      'premiumRequestForm',
      'businessSignupForm',
    ] as const) {
      expect(s.externalUrls[key]).toMatch(/^https:\/\//);
    }
    // The API's own reference page, unless an operator points the link elsewhere.
    expect(s.externalUrls.apiDocs).toBe('/api/docs');
    expect(s.socials.x).toMatch(/^https:\/\//);
    expect(s.socials.telegram).toMatch(/^https:\/\/t\.me\//);
    expect(s.siteContactEmail).toMatch(/@/);
    for (const key of ['siteTitle', 'siteUrl', 'siteHeader', 'siteDescription'] as const)
      expect(s[key].length).toBeGreaterThan(0);
  });
});

describe('security headers', () => {
  it('are on successes, errors and 404s', async () => {
    for (const [path, status] of [
      ['/api/strategies', 200],
      ['/api/history', 400],
      ['/api/does-not-exist', 404],
    ] as const) {
      const res = await t.http.get(path).expect(status);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['content-security-policy']).toContain("default-src 'none'");
      expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    }
  });
});

describe('ETag and Cache-Control on GET data endpoints', () => {
  const paths = [
    '/api/settings',
    '/api/sources',
    '/api/strategies',
    '/api/baserate',
    '/api/history?id=3&range=30D',
    '/api/strategies/3/breakdown',
    '/api/strategy-content/lido',
    '/api/openapi.json',
  ];
  it.each(paths)('%s sends ETag + Cache-Control and answers 304 to If-None-Match', async (path) => {
    const first = await t.http.get(path).expect(200);
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    const again = await t.http.get(path).set('If-None-Match', etag).expect(304);
    expect(again.text).toBe('');
    await t.http.get(path).set('If-None-Match', `"other", W/${etag}`).expect(304);
    await t.http.get(path).set('If-None-Match', '"stale"').expect(200);
  });
});

describe('GET /api/sources', () => {
  it('lists the 11 sources in spec order, then the two base-rate rows', async () => {
    const res = await t.http.get('/api/sources').expect(200);
    const list = res.body as YieldSource[];
    expect(list.map((s) => s.id)).toEqual([...SOURCE_IDS, 0, 0]);
    expect(list.find((s) => s.id === 12)!.name).toBe('Gauntlet- USD Alpha');
    expect(list.find((s) => s.id === 3)).toMatchObject({
      name: 'Liquity v1 - Stability Pool',
      token: 'LUSD',
      yieldToken: 'LUSD',
      type: 'stablecoin',
      rating: 4,
      safety: 4,
      liquidity: 5,
      real_or_incentive: 'Mixed',
      yield_type: 'Liquidation gains + LQTY',
      yield_category: 'Stability pool',
      isBaseRate: false,
      detailSlug: 'liquity',
    });
    const bases = list.filter((s) => s.isBaseRate);
    expect(bases.map((b) => [b.name, b.type])).toEqual([
      ['DeFi Base Rate', 'stablecoin'],
      ['DeFi Base Rate', 'defi'],
    ]);
    const usr = list.find((s) => s.id === 8)!;
    expect(usr).toMatchObject({ safety: 1, liquidity: 3, rating: 1 });
    expect(usr.incidents).toEqual([expect.objectContaining({ date: '2026-03-22', active: true })]);
    expect(list.filter((s) => s.detailSlug).map((s) => [s.id, s.detailSlug])).toEqual([
      [3, 'liquity'],
      [2, 'sky-spark'],
      [12, 'gauntlet'],
      [13, 'lido'],
    ]);
  });
});

describe('GET /api/strategies and /api/baserate', () => {
  it('returns {id, yield30d, riskAdjustedYield30d, tvl} for every source', async () => {
    const res = await t.http.get('/api/strategies').expect(200);
    const list = res.body as StrategyMetrics[];
    expect(list.map((s) => s.id)).toEqual(SOURCE_IDS);
    for (const s of list) {
      expect(typeof s.yield30d).toBe('number');
      expect(typeof s.riskAdjustedYield30d).toBe('number');
      expect(s.tvl).toBeGreaterThan(0);
      expect(s.status).toBe('ok');
      expect(s.method).toBe('ra30-v1');
      expect(s.riskAdjustedYield30d).toBeLessThan(s.yield30d);
    }
  });
  it('an active incident is never GREAT on the shipped data', async () => {
    const list = (await t.http.get('/api/strategies')).body as (StrategyMetrics & {
      great: boolean;
    })[];
    expect(list.find((s) => s.id === 8)!.great).toBe(false);
  });
  it('returns the four base rates', async () => {
    const body = (await t.http.get('/api/baserate').expect(200)).body as BaseRates;
    for (const k of [
      'baserateDefi',
      'baserateStable',
      'baserateRiskAdjustedDefi',
      'baserateRiskAdjustedStable',
    ] as const) {
      expect(typeof body[k]).toBe('number');
    }
    expect(body.baserateStable).toBeGreaterThan(body.baserateRiskAdjustedStable);
    expect(body.baserateDefi).toBeGreaterThan(body.baserateRiskAdjustedDefi);
  });
});

describe('GET /api/history', () => {
  it.each([
    ['7D', 7],
    ['30D', 30],
    ['90D', 90],
    ['180D', 180],
  ])('range %s returns the newest %i daily points', async (range, n) => {
    const body = (await t.http.get(`/api/history?id=13&range=${range}`).expect(200))
      .body as HistoryResponse;
    expect(body.data).toHaveLength(n);
    const last = body.data[body.data.length - 1]!;
    expect(last.timestamp).toBe(Date.UTC(2026, 10, 21));
    for (let i = 0; i < body.data.length; i++) {
      const p = body.data[i]!;
      expect(p.timestamp % DAY).toBe(0); // UTC midnight, in ms
      if (i > 0) expect(p.timestamp - body.data[i - 1]!.timestamp).toBe(DAY);
      expect(Object.keys(p).sort()).toEqual(['apr', 'timestamp', 'tvl']);
    }
    expect(body.lastTvl).toBe(last.tvl);
  });

  it('lastApr / lastRaApr are the current yield30d / riskAdjustedYield30d', async () => {
    const strategies = (await t.http.get('/api/strategies')).body as StrategyMetrics[];
    const lido = strategies.find((s) => s.id === 13)!;
    const body = (await t.http.get('/api/history?id=13&range=7D')).body as HistoryResponse;
    expect(body.lastApr).toBe(lido.yield30d);
    expect(body.lastRaApr).toBe(lido.riskAdjustedYield30d);
    expect(body.lastTvl).toBe(lido.tvl);
  });

  it("lastHolders is the newest day's holder count, null for a series without one", async () => {
    const liquity = (await t.http.get('/api/history?id=3&range=7D')).body as HistoryResponse;
    expect(liquity.lastHolders).toBe(1649);
    const lido = (await t.http.get('/api/history?id=13&range=7D')).body as HistoryResponse;
    expect(lido.lastHolders).toBeNull();
  });

  it('serves the base-rate series too', async () => {
    const body = (await t.http.get('/api/history?id=base-stablecoin&range=30D').expect(200))
      .body as HistoryResponse;
    expect(body.data).toHaveLength(30);
  });

  it.each([
    ['/api/history', 'invalid_id'],
    ['/api/history?range=30D', 'invalid_id'],
    ['/api/history?id=3', 'invalid_range'],
    ['/api/history?id=3&range=1Y', 'invalid_range'],
    ['/api/history?id=3&range=30d', 'invalid_range'],
    ['/api/history?id=999&range=30D', 'invalid_id'],
    ['/api/history?id=abc&range=30D', 'invalid_id'],
    ['/api/history?id=0&range=30D', 'invalid_id'],
    ['/api/history?id=3&id=4&range=30D', 'invalid_id'],
  ])('%s → 400 %s', async (path, code) => {
    const res = await t.http.get(path).expect(400);
    expectErrorBody(res.body, code);
  });
});

describe('GET /api/strategies/:id/breakdown', () => {
  it('shows every charge, the inputs and asOf; the charges add up to the risk', async () => {
    const b = (await t.http.get('/api/strategies/5/breakdown').expect(200)).body as RiskBreakdown;
    expect(b).toMatchObject({
      id: 5,
      method: 'ra30-v1',
      asOf: '2026-11-21',
      status: 'ok',
      window: { to: '2026-11-21', days: 30 },
    });
    expect(Object.keys(b.charges).sort()).toEqual([
      'incentives',
      'liquidity',
      'outflow',
      'safety',
      'size',
      'volatility',
    ]);
    const sum = Object.values(b.charges).reduce((a, c) => a + c, 0);
    expect(sum).toBeCloseTo(b.risk, 10);
    expect(b.yield30d - b.riskAdjustedYield30d).toBeCloseTo(b.risk, 10);
    expect(b.inputs).toMatchObject({ safety: 3, liquidity: 3 });
  });
  it.each(['base-stablecoin', 'base-defi'])('accepts %s', async (id) => {
    const b = (await t.http.get(`/api/strategies/${id}/breakdown`).expect(200))
      .body as RiskBreakdown;
    expect(b.id).toBe(id);
    expect(b.risk).toBeGreaterThan(0);
    expect(b.great).toBe(false);
  });
  it('400 for a malformed id, 404 for an unknown one', async () => {
    expectErrorBody(
      (await t.http.get('/api/strategies/abc/breakdown').expect(400)).body,
      'invalid_id',
    );
    expectErrorBody(
      (await t.http.get('/api/strategies/999/breakdown').expect(404)).body,
      'not_found',
    );
  });
});

describe('GET /api/strategy-content/:slug', () => {
  const get = async (slug: string) =>
    (await t.http.get(`/api/strategy-content/${slug}`).expect(200)).body as StrategyContent;

  it('Liquity: $41M, #62, 5 bars, 100% ETH, and the section 9 facts', async () => {
    const c = await get('liquity');
    expect(c).toMatchObject({
      id: 3,
      slug: 'liquity',
      name: 'Liquity Protocol',
      marketCap: '$41M',
      rank: '#62',
      riskRatingBars: 5,
    });
    expect(c.holdings.map((h) => [h.name, h.percentage])).toEqual([['ETH', 100]]);
    const text = JSON.stringify(c);
    expect(text).toContain('2 million LQTY');
    expect(text).toContain('31 liquidations in 2023 and 16 in 2024');
    expect(text).toMatch(/about 10%/);
  });

  it('Sky: $3.95B, #3, 4 bars, Dependencies Bad, the seven holdings', async () => {
    const c = await get('sky-spark');
    expect(c).toMatchObject({ id: 2, marketCap: '$3.95B', rank: '#3', riskRatingBars: 4 });
    expect(c.ratings.dependencies).toBe('Bad');
    expect(c.holdings.map((h) => [h.name, h.percentage])).toEqual([
      ['USDC', 37.4],
      ['Treasury Bills', 20.19],
      ['ETH', 15.34],
      ['wstETH', 6.42],
      ['cbBTC', 6.32],
      ['BTC', 4.02],
      ['Other', 10.31],
    ]);
  });

  it('Gauntlet: N/A market cap and rank, 4 bars, six Morpho vaults + Other, 40% cap', async () => {
    const c = await get('gauntlet');
    expect(c).toMatchObject({ id: 12, marketCap: 'N/A', rank: 'N/A', riskRatingBars: 4 });
    expect(c.holdings.map((h) => h.percentage)).toEqual([55, 16, 10, 7, 5, 4, 3]);
    expect(c.holdings[6]!.name).toBe('Other');
    expect(c.strategyLimitsContent.join(' ')).toContain('capped at 40%');
  });

  it('Lido: $15.2B, #7, 5 bars, 100% ETH, over 25% share and 9 million ETH', async () => {
    const c = await get('lido');
    expect(c).toMatchObject({ id: 13, marketCap: '$15.2B', rank: '#7', riskRatingBars: 5 });
    expect(c.holdings.map((h) => [h.name, h.percentage])).toEqual([['ETH', 100]]);
    const text = JSON.stringify(c);
    expect(text).toContain('over 25% share');
    expect(text).toContain('over 9 million ETH');
  });

  it.each(['liquity', 'sky-spark', 'gauntlet', 'lido'])(
    '%s has nine rated providers, a diagram and a sample liquidity series',
    async (slug) => {
      const c = await get(slug);
      expect(c.thirdPartyRatings).toHaveLength(9);
      for (const r of c.thirdPartyRatings) {
        expect(r.providerUrl).toMatch(/^https:\/\//);
        expect(r.value.length).toBeGreaterThan(0);
        expect(r.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      }
      expect(new Set(c.thirdPartyRatings.map((r) => r.provider)).size).toBe(9);
      expect(c.diagram.steps.length).toBeGreaterThanOrEqual(3);
      expect(Object.keys(c.ratings)).toHaveLength(7);
      expect(c.liquidity.sample).toBe(true);
      expect(c.liquidity.points.length).toBeGreaterThanOrEqual(180);
      for (const p of c.liquidity.points) {
        expect(p.liquidityPct).toBeGreaterThanOrEqual(0);
        expect(p.liquidityPct).toBeLessThanOrEqual(3);
        expect(p.amihud).toBeGreaterThanOrEqual(3.2e-11);
        expect(p.amihud).toBeLessThanOrEqual(7.51e-11);
      }
      expect(JSON.stringify(c)).not.toMatch(/lorem|TODO|TBD/i);
    },
  );

  it('404 for an unknown slug', async () => {
    expectErrorBody((await t.http.get('/api/strategy-content/aave').expect(404)).body, 'not_found');
  });
});

describe('GET /api/openapi.json', () => {
  it('is OpenAPI 3.1 describing every endpoint', async () => {
    const doc = (await t.http.get('/api/openapi.json').expect(200)).body as {
      openapi: string;
      paths: Record<string, object>;
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        '/api/health',
        '/api/settings',
        '/api/sources',
        '/api/strategies',
        '/api/baserate',
        '/api/history',
        '/api/earnings',
        '/api/net-yield',
        '/api/net-yield/ranking',
        '/api/strategies/{id}/breakdown',
        '/api/strategy-content/{slug}',
        '/api/addToMailList',
        '/api/alerts',
        '/api/alerts/confirm',
        '/api/alerts/unsubscribe',
        '/api/mailing-list/confirm',
        '/api/mailing-list/unsubscribe',
        '/api/premium',
        '/api/premiumLogin',
        '/api/premium/strategies/{id}',
        '/api/premium/sign-in',
        '/api/scanner',
        '/api/scanner/pools/{pool}/history',
        '/api/track-record',
        '/api/track-record/scanner',
        '/api/remote-errors',
        '/api/openapi.json',
        '/api/docs',
        '/api/docs/redoc.standalone.js',
      ].sort(),
    );
  });
});

describe('errors', () => {
  it('unknown /api paths are 404 JSON, also under /api/premium (koa-jwt is not app-wide)', async () => {
    for (const path of ['/api/nope', '/api/premium/other', '/api/premium/strategies', '/api']) {
      const res = await t.http.get(path).expect(404).expect('Content-Type', /json/);
      expectErrorBody(res.body, 'not_found');
    }
  });
  it('a wrong method is a JSON 405', async () => {
    const res = await t.http.delete('/api/strategies').expect(405);
    expectErrorBody(res.body, 'method_not_allowed');
  });
  it('POST without a JSON content type → 415', async () => {
    const res = await t.http
      .post('/api/addToMailList')
      .set('Content-Type', 'text/plain')
      .send('a@b.co')
      .expect(415);
    expectErrorBody(res.body, 'unsupported_media_type');
    const form = await t.http
      .post('/api/premium')
      .type('form')
      .send({ inviteCode: 'x' })
      .expect(415);
    expectErrorBody(form.body, 'unsupported_media_type');
    expect(form.body.success).toBe(false);
    // The body reader is mounted per route: an unknown path stays a 404 whatever it is sent.
    await t.http.post('/api/nope').set('Content-Type', 'text/plain').send('x').expect(404);
  });
  it('bodies over 16 KB → 413, with or without Content-Length', async () => {
    const big = JSON.stringify({ email: 'a@example.com', pad: 'x'.repeat(17 * 1024) });
    expectErrorBody(
      (
        await t.http
          .post('/api/addToMailList')
          .set('Content-Type', 'application/json')
          .send(big)
          .expect(413)
      ).body,
      'payload_too_large',
    );
    // Streamed in chunks: no Content-Length to trust, the reader must count.
    const req = t.http.post('/api/addToMailList').set('Content-Type', 'application/json');
    for (let i = 0; i < big.length; i += 4096) req.write(big.slice(i, i + 4096));
    const chunked = await req.expect(413);
    expect(
      chunked.headers['content-length'] === undefined ||
        Number(chunked.headers['content-length']) > 0,
    ).toBe(true);
    expectErrorBody(chunked.body, 'payload_too_large');
  });
  it('malformed JSON → 400', async () => {
    const res = await t.http
      .post('/api/addToMailList')
      .set('Content-Type', 'application/json')
      .send('{"email":')
      .expect(400);
    expectErrorBody(res.body, 'invalid_json');
  });
  it('an unexpected failure is a 500 without internals', async () => {
    const original = t.deps.snapshot;
    t.deps.snapshot = () => {
      throw new Error('secret internal detail at /srv/app/file.ts:12:3');
    };
    try {
      const res = await t.http.get('/api/strategies').expect(500);
      expect(res.body).toEqual({
        error: { code: 'internal_error', message: 'Internal server error' },
      });
      expect(
        t.logger.lines.some((l) => l.level === 'error' && l.message === 'request failed'),
      ).toBe(true);
    } finally {
      t.deps.snapshot = original;
    }
  });
});

describe('static-response fast path', () => {
  it.each(['/api/strategies', '/api/baserate', '/api/sources', '/api/settings'])(
    '%s: the fast path and the Koa route send the same status, headers and bytes',
    async (path) => {
      // Each answer echoes its request's id: the same id on both makes the headers comparable.
      const fast = await t.http.get(path).set('X-Request-Id', 'same-id').expect(200);
      const routed = await t.http.get(`${path}?via=koa`).set('X-Request-Id', 'same-id').expect(200);
      expect(fast.headers['x-request-id']).toBe('same-id');
      expect(fast.text).toBe(routed.text);
      const strip = (h: Record<string, string>) => {
        const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...rest } = h;
        return rest;
      };
      expect(strip(fast.headers)).toEqual(strip(routed.headers));
      const etag = fast.headers.etag as string;
      const notModified = await t.http.get(path).set('If-None-Match', etag).expect(304);
      expect(notModified.headers['x-frame-options']).toBe('DENY');
    },
  );

  it('falls through to Koa for other methods', async () => {
    await t.http
      .post('/api/strategies')
      .set('Content-Type', 'application/json')
      .send('{}')
      .expect(405);
    await t.http.head('/api/strategies').expect(200);
  });
});
