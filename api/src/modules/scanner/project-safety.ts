/**
 * The safety score (1-5) of a DeFiLlama project for the scanner (rapool-v3): the dated score of the scored
 * source it follows (sources.json), else its own dated tier (project-tiers.json), else the
 * method's cautious default for a project nobody has reviewed.
 */
import type { Score } from '../../engine/index.ts';
import { RAPOOL_V1 } from '../../engine/index.ts';
import type { ProjectTiersFile } from './schemas.ts';
import type { SourcesFile } from '../yields/index.ts';
import { scoreAt } from '../yields/index.ts';

export interface ProjectSafety {
  safety: Score;
  basis: 'source' | 'tier' | 'unlisted';
  /** The source whose score applies (basis "source"). */
  sourceId?: number;
}

export interface ProjectSafetyTable {
  of(project: string): ProjectSafety;
  /** Tier entries naming a source id that sources.json does not have (charged as unlisted). */
  unknownSources: { project: string; source: number }[];
}

/**
 * @param date the snapshot's day (YYYY-MM-DD): a source's score is the newest dated on or before
 *   it, as ra30-v1 does for the window's last day; null takes the newest.
 */
export function projectSafetyTable(
  tiers: ProjectTiersFile,
  sources: SourcesFile,
  date: string | null,
): ProjectSafetyTable {
  const byId = new Map(sources.sources.map((s) => [s.id, s]));
  const table = new Map<string, ProjectSafety>();
  const unknownSources: ProjectSafetyTable['unknownSources'] = [];
  for (const entry of tiers.projects) {
    const key = entry.project.toLowerCase();
    if ('source' in entry) {
      const source = byId.get(entry.source);
      if (!source) {
        unknownSources.push({ project: entry.project, source: entry.source });
        continue;
      }
      table.set(key, {
        safety: scoreAt(source.scores, date).safety,
        basis: 'source',
        sourceId: source.id,
      });
    } else {
      table.set(key, { safety: entry.safety, basis: 'tier' });
    }
  }
  const unlisted: ProjectSafety = { safety: RAPOOL_V1.unlistedSafety, basis: 'unlisted' };
  return {
    of: (project) => table.get(project.toLowerCase()) ?? unlisted,
    unknownSources,
  };
}
