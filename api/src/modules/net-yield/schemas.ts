/**
 * costs.json: the deposit and withdrawal costs of each source read from its chain at import
 * (api/src/modules/import, docs/methodology.md "Net yield", docs/decisions.md 55), dated, which
 * GET /api/net-yield reads. Each part is known (with the day it was read) or unknown with the
 * reason why: never a made-up zero. A failed read keeps the last good part with its own day.
 */
import { z } from 'zod';
import {
  chainSlugSchema,
  evmAddressSchema,
  isoDateSchema,
  isoDateTimeSchema,
} from '@yield/contract';

const reason = z.string().min(1);
const unknownPart = z.strictObject({ unknown: reason, date: isoDateSchema });

/** A fee rate: a fraction of the amount deposited (0.001 = 0.1 %). */
const ratePart = z.union([
  z.strictObject({ rate: z.number().finite().min(0).max(1), date: isoDateSchema }),
  unknownPart,
]);
/** Gas units of a deposit and of a withdrawal of the source's kind of contract (measured). */
const gasUnitsPart = z.union([
  z.strictObject({
    deposit: z.number().int().positive(),
    withdraw: z.number().int().positive(),
    date: isoDateSchema,
  }),
  unknownPart,
]);
/** The chain's gas price in wei per gas unit (eth_feeHistory), as a decimal string. */
const gasPricePart = z.union([
  z.strictObject({ wei: z.string().regex(/^\d{1,40}$/), date: isoDateSchema }),
  unknownPart,
]);
/** The USD price of the chain's native token that day (the coins API: ETH on Ethereum). */
const nativeUsdPart = z.union([
  z.strictObject({
    coin: z.string().min(1),
    usd: z.number().finite().positive(),
    date: isoDateSchema,
  }),
  unknownPart,
]);

export const sourceCostsRecordSchema = z.strictObject({
  chain: chainSlugSchema,
  address: evmAddressSchema,
  kind: z.string().min(1),
  /** The last import that read this source's costs, and its block. */
  readAt: isoDateTimeSchema,
  /** Null while no read of it has reached the node. */
  block: z.string().regex(/^\d+$/).nullable(),
  entry: ratePart,
  exit: ratePart,
  gasUnits: gasUnitsPart,
  gasPrice: gasPricePart,
  nativeUsd: nativeUsdPart,
});
export type SourceCostsRecord = z.infer<typeof sourceCostsRecordSchema>;

export const costsFileSchema = z.strictObject({
  note: z.string().optional(),
  /** Source id → its costs (only sources with an on-chain feed are read). */
  sources: z.record(z.string().regex(/^[1-9]\d{0,5}$/), sourceCostsRecordSchema),
});
export type CostsFile = z.infer<typeof costsFileSchema>;
