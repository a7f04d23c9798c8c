/**
 * The composition root (api/src/composition/deps.ts) builds the modules' state itself: the
 * scanner's index exists once createDeps has returned, before any app, router or request, and is
 * read from the pools' histories once (one full reload).
 */
import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createDeps, type AppDeps } from '../src/composition/deps.ts';
import { silentLogger } from '../src/platform/logger.ts';
import { tempDataDir } from './helpers.ts';

const opened: { deps: AppDeps; dir: string }[] = [];
afterEach(async () => {
  for (const { deps, dir } of opened.splice(0)) {
    await deps.close();
    await rm(dir, { recursive: true, force: true });
  }
});

describe('the composition root', () => {
  it("builds the scanner's index itself, before any app or request exists", async () => {
    const dir = await tempDataDir();
    const deps = await createDeps({
      dataDir: dir,
      logger: silentLogger,
      watchIntervalMs: 0,
      importIntervalMs: null,
      poolBackfill: { top: 0 },
    });
    opened.push({ deps, dir });
    await deps.scanner.settled();
    expect(deps.scanner.index()?.size).toBeGreaterThan(0);
    expect(deps.scanner.fullReloads()).toBe(1);
    expect(deps.scanner.history).toBe(deps.poolHistory);
  });
});
