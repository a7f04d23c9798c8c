/**
 * The scanner's current index, one per AppDeps: built when the app is created and rebuilt when
 * pools.json, project-tiers.json or sources.json is accepted (store.onChange). A file the store
 * refuses changes nothing here (the store keeps its last good data), and a rebuild that throws
 * keeps the previous index.
 */
import type { AppDeps } from '../../deps.ts';
import type { DataFiles } from '../../composition/data-files.ts';
import { buildPoolIndex, type PoolIndex } from './pool-index.ts';
import { projectSafetyTable } from './project-safety.ts';

export const SCANNER_FILES: (keyof DataFiles)[] = ['pools', 'projectTiers', 'sources'];

export interface ScannerState {
  /** The index queries use, or null while a needed file never loaded. */
  index(): PoolIndex | null;
  /** Why there is no index (for the 503). */
  unavailableReason(): string;
}

const states = new WeakMap<AppDeps, ScannerState>();

export function scannerState(deps: AppDeps): ScannerState {
  const existing = states.get(deps);
  if (existing) return existing;

  let index: PoolIndex | null = null;
  let reason = 'the scanner has not been built yet';

  const rebuild = () => {
    const pools = deps.store.get('pools');
    const tiers = deps.store.get('projectTiers');
    const sources = deps.store.get('sources');
    if (!pools || !tiers || !sources) {
      const missing = !pools ? 'pools.json' : !tiers ? 'project-tiers.json' : 'sources.json';
      reason = `${missing} has not loaded (see GET /api/health)`;
      return;
    }
    try {
      const started = performance.now();
      const safety = projectSafetyTable(tiers, sources, pools.asOf?.slice(0, 10) ?? null);
      for (const u of safety.unknownSources) {
        deps.logger.warn('project tier names an unknown source, charged as unlisted', {
          file: 'project-tiers.json',
          ...u,
        });
      }
      index = buildPoolIndex(pools, safety.of);
      deps.logger.info('scanner index built', {
        pools: index.size,
        asOf: index.asOf,
        ms: Math.round(performance.now() - started),
      });
    } catch (err) {
      deps.logger.error('building the scanner index failed, keeping the previous one', {
        error: (err as Error).message,
      });
    }
  };

  rebuild();
  deps.store.onChange((changed) => {
    if (changed.some((k) => SCANNER_FILES.includes(k))) rebuild();
  });

  const state: ScannerState = { index: () => index, unavailableReason: () => reason };
  states.set(deps, state);
  return state;
}
