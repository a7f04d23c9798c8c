/**
 * A local stand-in for DeFiLlama's yields API (node:http on 127.0.0.1, a free port): it answers
 * `GET /chart/<pool>` and `GET /pools` with responses in the published shape (by default /pools
 * is a small generated snapshot, api/scripts/generate-pools.ts), or with the failure a test asks for.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { generatePoolsResponse } from '../scripts/generate-pools.ts';

/** Pools in the default /pools answer. */
export const REPLAY_POOL_COUNT = 50;

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
  close(): Promise<void>;
}

export function chartBody(points: ChartPoint[]): unknown {
  return { status: 'success', data: points };
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
  let poolsReply: Reply = {
    kind: 'json',
    body: generatePoolsResponse({ count: REPLAY_POOL_COUNT, seed: 7 }),
  };
  const requests: string[] = [];
  const userAgents: string[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    userAgents.push(req.headers['user-agent'] ?? '');
    const m = /^\/chart\/([^/?]+)$/.exec(req.url ?? '');
    const reply = req.url === '/pools' ? poolsReply : m ? replies.get(m[1]!) : undefined;
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
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
