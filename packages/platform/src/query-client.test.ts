import { createQueryClient, retryDelay } from './query-client.ts';

describe('fetching semantics (retry 3, back-off 1 s to 30 s, gc 5 min)', () => {
  it('backs off from 1 s, doubling, capped at 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(retryDelay)).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000,
    ]);
  });

  it('retries 3 times, drops unused data after 5 minutes, refetches on focus and reconnect', () => {
    const options = createQueryClient().getDefaultOptions().queries!;
    expect(options.retry).toBe(3);
    expect(options.gcTime).toBe(300_000);
    expect(options.refetchOnWindowFocus).toBe(true);
    expect(options.refetchOnReconnect).toBe(true);
  });
});
