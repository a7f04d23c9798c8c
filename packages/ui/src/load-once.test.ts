import { describe, expect, it, vi } from 'vitest';
import { loadOnce } from './load-once.ts';

describe('loadOnce', () => {
  it('shares one import between calls, and tries again after a failure', async () => {
    const load = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue('chunk');
    const get = loadOnce(load);
    await expect(get()).rejects.toThrow('offline');
    await expect(Promise.all([get(), get()])).resolves.toEqual(['chunk', 'chunk']);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
