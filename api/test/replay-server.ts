/**
 * A local stand-in for DeFiLlama's yields API (node:http on 127.0.0.1, a free port): it answers
 * `GET /chart/<pool>` and `GET /pools` with responses in the published shape (by default /pools
 * is a small generated snapshot, api/scripts/generate-pools.ts, plus a pool for each selector of the
 * shipped sources.json, test/selector-pools.ts), or with the failure a test asks for.
 * It also stands in for the coins API: `GET /chart/<chain>:<address>?start=&span=&period=1d`
 * answers, unless a test sets another reply, a price of 1 for each day asked for.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { generatePoolsResponse } from '../scripts/generate-pools.ts';
import { shippedSelectorPools, withShippedSelectors } from './selector-pools.ts';

/** Generated pools in the default /pools answer. */
const GENERATED_POOL_COUNT = 50;
/** Pools in the default /pools answer: generated ones and one per selector of the shipped sources.json. */
export const REPLAY_POOL_COUNT = GENERATED_POOL_COUNT + shippedSelectorPools().length;

export interface ChartPoint {
  timestamp: string;
  tvlUsd: number;
  apy: number | null;
  apyBase: number | null;
  apyReward: number | null;
  il7d: number | null;
  apyBase7d: number | null;
}

export type Reply =
  | { kind: 'json'; body: unknown; delayMs?: number }
  | { kind: 'raw'; status: number; body: string; delayMs?: number }
  /** Never answers (the importer's timeout must end it). */
  | { kind: 'hang' };

export interface ReplayServer {
  url: string;
  /** Paths requested, in order. */
  requests: string[];
  /** User-Agent header of each request. */
  userAgents: string[];
  /** Replaces the answer for one pool. */
  set(pool: string, reply: Reply): void;
  /** Replaces the answer for /pools. */
  setPools(reply: Reply): void;
  /** Replaces the coins API's answer for one coin (`chain:address`). */
  setCoin(coin: string, reply: Reply): void;
  close(): Promise<void>;
}

export function chartBody(points: ChartPoint[]): unknown {
  return { status: 'success', data: points };
}

export interface CoinPricePoint {
  timestamp: number;
  price: number;
  confidence?: number;
}

/** A coins API chart answer for one coin, in its published shape. */
export function coinsBody(coin: string, prices: CoinPricePoint[], confidence = 0.99): unknown {
  return { coins: { [coin]: { symbol: 'TOKEN', decimals: 18, confidence, prices } } };
}

/** One price a day (at a time of day that moves around) for `days` days ending `lastDay`. */
export function dailyPrices(options: {
  lastDay: string;
  days: number;
  price: number | ((i: number) => number);
}): CoinPricePoint[] {
  const end = Date.parse(`${options.lastDay}T00:00:00Z`) / 1000;
  return Array.from({ length: options.days }, (_, i) => ({
    timestamp: end - (options.days - 1 - i) * 86_400 + ((i * 97 + 7) % 1440) * 60,
    price: typeof options.price === 'function' ? options.price(i) : options.price,
  }));
}

/** The default coins answer: a price of 1 on each day of the span asked for. */
function defaultCoinsReply(coin: string, query: URLSearchParams): Reply {
  const start = Number(query.get('start') ?? 0);
  const span = Number(query.get('span') ?? 1);
  const lastDay = new Date((start + (span - 1) * 86_400) * 1000).toISOString().slice(0, 10);
  return { kind: 'json', body: coinsBody(coin, dailyPrices({ lastDay, days: span, price: 1 })) };
}

/**
 * One snapshot a day for `days` days ending `lastDay`, at a time of day that moves around (as
 * DeFiLlama's do), with the given APY and TVL (constants or per-day functions).
 */
export function dailyPoints(options: {
  lastDay: string;
  days: number;
  apy: number | ((i: number) => number);
  tvlUsd?: number | ((i: number) => number);
  apyReward?: number | null;
}): ChartPoint[] {
  const end = Date.parse(`${options.lastDay}T00:00:00Z`);
  const value = (v: number | ((i: number) => number), i: number) =>
    typeof v === 'function' ? v(i) : v;
  const points: ChartPoint[] = [];
  for (let i = 0; i < options.days; i++) {
    const dayStart = end - (options.days - 1 - i) * 86_400_000;
    // 00:07, 01:30, ... 23:xx: irregular snapshot times within the day.
    const at = dayStart + ((i * 97 + 7) % 1440) * 60_000 + ((i * 13) % 60) * 1000;
    const apy = value(options.apy, i);
    const reward = options.apyReward === undefined ? null : options.apyReward;
    points.push({
      timestamp: new Date(at).toISOString(),
      tvlUsd: value(options.tvlUsd ?? 100_000_000, i),
      apy,
      apyBase: reward === null ? apy : apy - reward,
      apyReward: reward,
      il7d: null,
      apyBase7d: null,
    });
  }
  return points;
}

export async function startReplayServer(
  defaults: Record<string, Reply> = {},
): Promise<ReplayServer> {
  const replies = new Map(Object.entries(defaults));
  const coinReplies = new Map<string, Reply>();
  let poolsReply: Reply = {
    kind: 'json',
    body: withShippedSelectors(generatePoolsResponse({ count: GENERATED_POOL_COUNT, seed: 7 })),
  };
  const requests: string[] = [];
  const userAgents: string[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    userAgents.push(req.headers['user-agent'] ?? '');
    const m = /^\/chart\/([^/?]+)$/.exec(req.url ?? '');
    const c = /^\/chart\/([a-z][a-z0-9_-]*:[^/?]+)\?(.*)$/.exec(req.url ?? '');
    const reply =
      req.url === '/pools'
        ? poolsReply
        : c
          ? (coinReplies.get(c[1]!) ?? defaultCoinsReply(c[1]!, new URLSearchParams(c[2])))
          : m
            ? replies.get(m[1]!)
            : undefined;
    if (!reply) {
      res.writeHead(400, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify('invalid configID!'));
      return;
    }
    if (reply.kind === 'hang') {
      hanging.add(res);
      return;
    }
    const send = () => {
      if (reply.kind === 'json') {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(reply.body));
      } else {
        res.writeHead(reply.status, { 'Content-Type': 'application/json' });
        res.end(reply.body);
      }
    };
    if (reply.delayMs) setTimeout(send, reply.delayMs);
    else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    userAgents,
    set: (pool, reply) => replies.set(pool, reply),
    setPools: (reply) => {
      poolsReply = reply;
    },
    setCoin: (coin, reply) => coinReplies.set(coin, reply),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
