/** The import module's file: the outcome of the last `data:import`. */
import { z } from 'zod';
import { importRunSchema } from '@yield/contract';

// ---------------------------------------------------------------- import-status.json (runtime-written)
export type FeedOutcome = z.infer<typeof importRunSchema>['feeds'][number];
export type PoolsOutcome = NonNullable<z.infer<typeof importRunSchema>['pools']>;
export type PriceOutcome = NonNullable<z.infer<typeof importRunSchema>['prices']>[number];

/** The outcome of the last `data:import` (CLI or schedule), read by GET /api/health. */
export const importStatusFileSchema = z.strictObject({ lastRun: importRunSchema.nullable() });
export type ImportStatusFile = z.infer<typeof importStatusFileSchema>;
