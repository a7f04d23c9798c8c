/** The scanner's own file: the operators' project tiers (pools.json is the import's, modules/import). */
import { z } from 'zod';
import {
  httpUrlSchema as url,
  isoDateSchema as isoDate,
  nonEmptySchema as nonEmpty,
  scoreSchema as score,
} from '@yield/contract';
import { flagRepeats } from '../../platform/files/schema-checks.ts';

// ---------------------------------------------------------------- project-tiers.json (operators)
const projectSlug = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9][a-z0-9._-]*$/, 'expected a DeFiLlama project slug (lower case, e.g. aave-v3)');

/**
 * Safety tiers of DeFiLlama projects for the scanner (method rapool-v1). An entry either follows
 * a scored source of sources.json (its dated safety score) or carries its own dated score.
 */
export const projectTiersFileSchema = z
  .strictObject({
    /** Day the list as a whole was last reviewed. */
    reviewed: isoDate,
    note: z.string().optional(),
    projects: z.array(
      z.union([
        z.strictObject({
          project: projectSlug,
          /** id of a source in sources.json whose safety score this project takes. */
          source: z.number().int().positive(),
          note: z.string().optional(),
        }),
        z.strictObject({
          project: projectSlug,
          safety: score,
          /** Day this score was set. */
          date: isoDate,
          rationale: nonEmpty,
          links: z.array(url).optional(),
        }),
      ]),
    ),
  })
  .superRefine((file, ctx) =>
    flagRepeats(
      ctx,
      file.projects,
      (p) => p.project,
      (i) => ['projects', i, 'project'],
      (project) => `project ${project} is listed twice`,
    ),
  );
export type ProjectTiersFile = z.infer<typeof projectTiersFileSchema>;
