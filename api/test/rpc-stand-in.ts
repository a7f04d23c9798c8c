/**
 * Stand-ins for a chain's JSON-RPC node (node:http on 127.0.0.1, a free port), for the on-chain
 * import's failures that a real node (anvil) cannot be made to show: `bad-head` answers like a
 * node whose latest block carries a timestamp no clock holds (0xffffffffffff), `hang` takes every
 * request and never answers. Real HTTP and JSON-RPC 2.0 shapes, batches included.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type StandInKind = 'bad-head' | 'hang';

export interface RpcStandIn {
  url: string;
  /** The JSON-RPC methods received, in order (each call of a batch). */
  methods: string[];
  /** HTTP requests not answered yet whose connection is still open. */
  open(): number;
  /** Resolves once every request received has been answered or dropped by its client. */
  drained(): Promise<void>;
  close(): Promise<void>;
}

interface RpcCall {
  jsonrpc: '2.0';
  id: number | string;
  method: string;
  params?: unknown[];
}

/** The stand-in head: block 100, its timestamp 2^48 − 1 seconds (no Date holds it). */
export const BAD_HEAD_TIMESTAMP = '0xffffffffffff';
const HEAD_NUMBER = '0x64';

function badHeadBlock(): Record<string, unknown> {
  const zero32 = `0x${'0'.repeat(64)}`;
  return {
    number: HEAD_NUMBER,
    hash: `0x${'ab'.repeat(32)}`,
    parentHash: `0x${'cd'.repeat(32)}`,
    nonce: '0x0000000000000000',
    sha3Uncles: zero32,
    logsBloom: `0x${'0'.repeat(512)}`,
    transactionsRoot: zero32,
    stateRoot: zero32,
    receiptsRoot: zero32,
    miner: `0x${'0'.repeat(40)}`,
    difficulty: '0x0',
    totalDifficulty: '0x0',
    extraData: '0x',
    size: '0x220',
    gasLimit: '0x1c9c380',
    gasUsed: '0x0',
    baseFeePerGas: '0x7',
    timestamp: BAD_HEAD_TIMESTAMP,
    transactions: [],
    uncles: [],
  };
}

/** The bad-head node's answer to one call. */
function answer(call: RpcCall): Record<string, unknown> {
  const reply = (result: unknown) => ({ jsonrpc: '2.0', id: call.id, result });
  switch (call.method) {
    case 'eth_chainId':
      return reply('0x2105');
    case 'eth_blockNumber':
      return reply(HEAD_NUMBER);
    case 'eth_getBlockByNumber':
      return reply(badHeadBlock());
    default:
      return {
        jsonrpc: '2.0',
        id: call.id,
        error: { code: -32601, message: `the method ${call.method} does not exist` },
      };
  }
}

export async function startRpcStandIn(kind: StandInKind): Promise<RpcStandIn> {
  const methods: string[] = [];
  const pending = new Set<http.ServerResponse>();
  let waiters: (() => void)[] = [];
  const settle = (res: http.ServerResponse) => {
    pending.delete(res);
    if (pending.size === 0) for (const w of waiters.splice(0)) w();
  };
  const server = http.createServer((req, res) => {
    pending.add(res);
    res.on('close', () => settle(res));
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    req.on('end', () => {
      const body = JSON.parse(text) as RpcCall | RpcCall[];
      const calls = Array.isArray(body) ? body : [body];
      methods.push(...calls.map((c) => c.method));
      if (kind === 'hang') return;
      const replies = calls.map(answer);
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify(Array.isArray(body) ? replies : replies[0]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    methods,
    open: () => pending.size,
    drained: () =>
      pending.size === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            waiters.push(resolve);
          }),
    close: async () => {
      waiters = [];
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
