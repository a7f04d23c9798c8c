import { QueryClient } from '@tanstack/react-query';
import type {
  HistoryResponse,
  NetYieldRankingAnswer,
  PremiumSession,
  RiskBreakdown,
  StrategyMetrics,
  YieldSource,
} from '@yield/contract';
import { ApiError } from './api-client.ts';
import {
  breakdownQuery,
  earningsQuery,
  netYieldQuery,
  historyQuery,
  mailSignupMutation,
  netYieldRankingQuery,
  alertSubscribeMutation,
  premiumAnalysisQuery,
  premiumInviteMutation,
  premiumLoginMutation,
  queryKeys,
  scannerCsvMutation,
  scannerPagesQuery,
  settingsQuery,
  sourcesQuery,
  strategiesQuery,
} from './queries.ts';

function respond(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

let calls: { url: string; init?: RequestInit }[] = [];
function stubFetch(answer: (url: string) => Response) {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ url, init });
      return answer(url);
    }),
  );
}
afterEach(() => vi.unstubAllGlobals());

const client = () => new QueryClient({ defaultOptions: { queries: { retry: false } } });

describe('one query per endpoint', () => {
  it('keys a series the same whether its id comes as a number or as text', async () => {
    expect(breakdownQuery(3).queryKey).toEqual(breakdownQuery('3' as never).queryKey);
    expect(historyQuery(3, '30D').queryKey).toEqual(['history', '3', '30D']);
    stubFetch(() => respond({ id: 3 }));
    const qc = client();
    await qc.fetchQuery(breakdownQuery(3));
    await qc.fetchQuery(breakdownQuery('3' as never));
    expect(calls.map((c) => c.url)).toEqual(['/api/strategies/3/breakdown']);
  });

  it('asks the API paths of the contract', async () => {
    stubFetch(() => respond({}));
    const qc = client();
    await qc.fetchQuery(settingsQuery);
    await qc.fetchQuery(sourcesQuery);
    await qc.fetchQuery(strategiesQuery);
    await qc.fetchQuery(historyQuery('base-defi', '7D'));
    await qc.fetchQuery(breakdownQuery('base-stablecoin'));
    await qc.fetchQuery(earningsQuery(13, 2.5, '90D'));
    await qc.fetchQuery(netYieldQuery(13, 2.5, 90));
    expect(calls.map((c) => c.url)).toEqual([
      '/api/settings',
      '/api/sources',
      '/api/strategies',
      '/api/history?id=base-defi&range=7D',
      '/api/strategies/base-stablecoin/breakdown',
      '/api/earnings?id=13&amount=2.5&range=90D',
      '/api/net-yield?id=13&amount=2.5&days=90',
    ]);
  });

  it('keeps figures fresh as long as the API caches them, texts for 5 minutes', () => {
    expect(strategiesQuery.staleTime).toBe(60_000);
    expect(breakdownQuery(3).staleTime).toBe(60_000);
    expect(settingsQuery.staleTime).toBe(300_000);
    expect(sourcesQuery.staleTime).toBe(300_000);
  });

  it('keys a premium analysis per token and does not retry a refusal', () => {
    const query = premiumAnalysisQuery('5', 'a.b.c');
    expect(query.queryKey).toEqual([...queryKeys.premiumAnalyses, '5', 'a.b.c']);
    const retry = query.retry as (failures: number, error: Error) => boolean;
    expect(retry(0, new ApiError(401, 'unauthorized', 'no', null))).toBe(false);
    expect(retry(0, new ApiError(503, 'unavailable', 'down', null))).toBe(true);
    expect(retry(3, new Error('network'))).toBe(false);
  });
});

describe('one mutation per POST', () => {
  it('posts the sign-up once, never retried', async () => {
    stubFetch(() => respond({ success: true, created: true }, 201));
    const options = mailSignupMutation();
    expect(options.retry).toBe(false);
    await expect(
      options.mutationFn!({ email: 'a@example.com', source: 'newsletter' }, {} as never),
    ).resolves.toEqual({ success: true, created: true });
    expect(calls[0]!.url).toBe('/api/addToMailList');
    expect(JSON.parse(String(calls[0]!.init!.body))).toEqual({
      email: 'a@example.com',
      source: 'newsletter',
    });
  });

  it('posts an alert subscription once, never retried', async () => {
    const answer = { success: true, message: 'Check your inbox' };
    stubFetch(() => respond(answer, 202));
    const options = alertSubscribeMutation();
    expect(options.retry).toBe(false);
    const body = { email: 'a@example.com', sourceId: 3, kind: 'below-base' as const };
    await expect(options.mutationFn!(body, {} as never)).resolves.toEqual(answer);
    expect(calls[0]!.url).toBe('/api/alerts');
    expect(JSON.parse(String(calls[0]!.init!.body))).toEqual(body);
  });

  it('treats an invite answer without success and token as a failure', async () => {
    stubFetch(() => respond({ success: false }));
    await expect(
      premiumInviteMutation().mutationFn!({ inviteCode: 'X' }, {} as never),
    ).rejects.toThrow();
    stubFetch(() => respond({ error: { code: 'invalid_invite_code', message: 'no' } }, 401));
    await expect(
      premiumLoginMutation().mutationFn!({ email: 'a@example.com', inviteCode: 'X' }, {} as never),
    ).rejects.toBeInstanceOf(ApiError);
  });
});

describe('the answers are typed from the contract', () => {
  // The compiler checks these (`pnpm --filter @yield/platform typecheck` covers this file): each
  // query's answer is the z.infer of its entry's response schema, not a type restated by hand.
  type Answer<Q extends { queryFn?: unknown }> = Awaited<
    ReturnType<Extract<NonNullable<Q['queryFn']>, (...args: never[]) => unknown>>
  >;

  it('each query answers the type of its endpoint', () => {
    expectTypeOf<Answer<ReturnType<typeof historyQuery>>>().toEqualTypeOf<HistoryResponse>();
    expectTypeOf<Answer<ReturnType<typeof breakdownQuery>>>().toEqualTypeOf<RiskBreakdown>();
    expectTypeOf<Answer<typeof sourcesQuery>>().toEqualTypeOf<YieldSource[]>();
    expectTypeOf<Answer<typeof strategiesQuery>>().toEqualTypeOf<StrategyMetrics[]>();
  });

  it('an activation answered without a token (202: a sign-in link is mailed) is a failure', async () => {
    const mailed = { success: true, emailSent: true, message: 'Check your inbox' };
    stubFetch(() => respond(mailed, 202));
    const login = { email: 'a@example.com', inviteCode: 'X' };
    await expect(premiumLoginMutation().mutationFn!(login, {} as never)).rejects.toThrow(
      'Activation was not accepted',
    );
    const session = {
      success: true,
      token: 'jwt',
      user: { userId: 'u', email: login.email, accessLevel: 'premium' },
    } satisfies PremiumSession;
    stubFetch(() => respond(session));
    await expect(premiumLoginMutation().mutationFn!(login, {} as never)).resolves.toEqual(session);
    expect(calls[0]!.url).toBe('/api/premiumLogin');
  });
});

describe('the scanner', () => {
  const filters = {
    asset: 'USDC',
    chain: 'Ethereum',
    stablecoin: true,
    sort: 'apy' as const,
    includeOutliers: false,
  };
  const page = (offset: number, count: number, total: number, teaser = false) => ({
    offset,
    total,
    teaser,
    items: Array.from({ length: count }, (_, i) => ({ pool: `p${offset + i}` })),
  });

  it('pages through GET /api/scanner with the filters until every match is loaded', async () => {
    stubFetch((url) => {
      const offset = Number(new URL(url, 'http://x').searchParams.get('offset'));
      return respond(page(offset, offset === 0 ? 100 : 50, 150));
    });
    const qc = client();
    const options = scannerPagesQuery(filters, 'token');
    const data = await qc.fetchInfiniteQuery({ ...options, pages: 3 });
    expect(data.pages.map((p) => p.offset)).toEqual([0, 100]);
    expect(calls.map((c) => c.url)).toEqual([
      '/api/scanner?asset=USDC&chain=Ethereum&stablecoin=true&sort=apy&offset=0&limit=100',
      '/api/scanner?asset=USDC&chain=Ethereum&stablecoin=true&sort=apy&offset=100&limit=100',
    ]);
    expect(options.queryKey).toEqual(['scanner', filters, 'token']);
  });

  it('stops after the teaser: no next page without premium', async () => {
    stubFetch(() => respond(page(0, 10, 400, true)));
    const qc = client();
    const data = await qc.fetchInfiniteQuery({ ...scannerPagesQuery(filters, null), pages: 3 });
    expect(data.pages).toHaveLength(1);
    expect(calls).toHaveLength(1);
  });

  it('downloads the CSV with the filters and the stored token', async () => {
    stubFetch(() => new Response('pool,project\n', { status: 200 }));
    const csv = await scannerCsvMutation().mutationFn!(
      { ...filters, includeOutliers: true },
      {} as never,
    );
    expect(csv).toBe('pool,project\n');
    expect(calls[0]!.url).toBe(
      '/api/scanner?asset=USDC&chain=Ethereum&stablecoin=true&sort=apy&includeOutliers=true&format=csv&limit=500',
    );
  });
});

describe('the net yield ranking', () => {
  it('asks GET /api/net-yield/ranking with the amount and the days, keyed by both', async () => {
    stubFetch(() => respond({ amount: 500, days: 365, items: [] }));
    const qc = client();
    await qc.fetchQuery(netYieldRankingQuery(500, 365));
    await qc.fetchQuery(netYieldRankingQuery(500, 365));
    await qc.fetchQuery(netYieldRankingQuery(0.5, 30));
    expect(calls.map((c) => c.url)).toEqual([
      '/api/net-yield/ranking?amount=500&days=365',
      '/api/net-yield/ranking?amount=0.5&days=30',
    ]);
    expect(netYieldRankingQuery(500, 365).queryKey).toEqual(['net-yield-ranking', 500, 365]);
    expect(netYieldRankingQuery(500, 365).staleTime).toBe(60_000);
  });

  it('does not retry a refused amount, retries an outage', () => {
    const retry = netYieldRankingQuery(1, 1).retry as (failures: number, error: Error) => boolean;
    expect(retry(0, new ApiError(400, 'invalid_amount', 'no', null))).toBe(false);
    expect(retry(0, new ApiError(503, 'unavailable', 'down', null))).toBe(true);
  });

  it('answers the contract type', () => {
    type QueryFn = NonNullable<ReturnType<typeof netYieldRankingQuery>['queryFn']>;
    type Answer = Awaited<ReturnType<Extract<QueryFn, (...args: never[]) => unknown>>>;
    expectTypeOf<Answer>().toEqualTypeOf<NetYieldRankingAnswer>();
  });
});
