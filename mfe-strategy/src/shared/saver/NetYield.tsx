import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { netYieldQuery, sourcesQuery } from '@yield/platform';
import type { NetCost, NetYieldAnswer } from '@yield/contract';
import type { AmountUnit } from '@yield/contract/constants';
import { NET_YIELD_DEFAULT_DAYS } from '@yield/contract/constants';
import { formatAmount, formatApr, formatDay } from '@yield/ui';
import { findSource } from '../sources.ts';
import { CostTip } from './CostTip.tsx';
import saver from './saver.module.css';
import styles from './net-yield.module.css';

/** The holding periods a saver picks from (days). */
export const HOLDING_DAYS = [30, 90, 180, 365] as const;
/** Typing pauses this long before the figures are asked for. */
export const SETTLE_MS = 300;

export type CostKind = keyof NetYieldAnswer['costs'];
export const COST_KINDS: readonly CostKind[] = ['entry', 'exit', 'gasIn', 'gasOut'];
export const COST_LABEL: Record<CostKind, string> = {
  entry: 'Entry fee',
  exit: 'Exit fee',
  gasIn: 'Gas in',
  gasOut: 'Gas out',
};

/** The value once it has stopped changing for SETTLE_MS (the typed amount, debounced). */
export function useSettled<T>(value: T): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}

/** A chain's name as a saver reads it: "ethereum" → "Ethereum", "arbitrum_one" → "Arbitrum one". */
export function chainName(slug: string): string {
  const words = slug.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * What one cost is and where it was read, for its info tip; without an answer (a label shared by
 * several sources) the day read is left to each source's own line.
 */
export function costExplanation(
  kind: CostKind,
  answer: Pick<NetYieldAnswer, 'chain' | 'costsAsOf'> | null,
): string {
  const read = !answer
    ? 'The day each was read is under "Costs read on".'
    : answer.costsAsOf
      ? `Read on ${formatDay(answer.costsAsOf)}.`
      : 'Not read yet.';
  const chain = answer?.chain ? chainName(answer.chain) : "the source's chain";
  switch (kind) {
    case 'entry':
      return `What the vault keeps when you deposit: convertToShares(amount) minus previewDeposit(amount), from the vault's own previews. ${read}`;
    case 'exit':
      return `What the vault keeps when you withdraw: convertToAssets(shares) minus previewRedeem(shares), from the vault's own previews. ${read}`;
    case 'gasIn':
      return `The network fee of the deposit on ${chain}: its measured gas units × the gas price (eth_feeHistory) × the native token's price. ${read}`;
    case 'gasOut':
      return `The network fee of the withdrawal on ${chain}: its measured gas units × the gas price (eth_feeHistory) × the native token's price. ${read}`;
  }
}

/** The break-even day said plainly, or why there is none. */
export function breakEvenText(
  answer: Pick<NetYieldAnswer, 'totalCost' | 'breakEvenDays' | 'days'>,
): string {
  if (answer.totalCost === null) return 'Break-even unknown: a cost is unknown';
  const d = answer.breakEvenDays;
  if (d === null) return 'Never breaks even at this amount';
  if (d === 0) return 'Breaks even at once: no costs';
  const plural = d === 1 ? '' : 's';
  return d > answer.days
    ? `Breaks even after ${d} day${plural}, longer than the ${answer.days} held`
    : `Breaks even after ${d} day${plural}`;
}

/** One cost: its amount (and USD for an ETH source), or "Unknown" with the reason, never 0. */
export function CostValue({ cost, unit }: { cost: NetCost; unit: AmountUnit }) {
  if (cost.amount === null) {
    return (
      <span className={styles.unknown} data-testid="cost-unknown">
        Unknown<span className={styles.reason}>{cost.unknown ?? 'Not read from the chain.'}</span>
      </span>
    );
  }
  return (
    <span>
      {formatAmount(cost.amount, unit)}
      {unit !== 'USD' && cost.usd !== null ? (
        <span className={styles.reason}>{formatAmount(cost.usd, 'USD')}</span>
      ) : null}
    </span>
  );
}

/** A cost's name with its info tip. */
export function CostLabel({
  kind,
  answer,
}: {
  kind: CostKind;
  answer: Pick<NetYieldAnswer, 'chain' | 'costsAsOf'> | null;
}) {
  return (
    <>
      {COST_LABEL[kind]} <CostTip label={COST_LABEL[kind]}>{costExplanation(kind, answer)}</CostTip>
    </>
  );
}

/** The days held: a small select. */
export function HoldingSelect({ days, onChange }: { days: number; onChange: (d: number) => void }) {
  const id = useId();
  return (
    <div className={styles.control}>
      <label htmlFor={id}>Held for</label>
      <select
        id={id}
        className={styles.select}
        value={days}
        onChange={(event) => onChange(Number(event.target.value))}
        data-testid="net-days"
      >
        {HOLDING_DAYS.map((d) => (
          <option key={d} value={d}>
            {d} days
          </option>
        ))}
      </select>
    </div>
  );
}

/** The rule in one line, with the way to the method. */
export function NetRule() {
  return (
    <p className={`${saver.note} ${styles.rule}`}>
      Every cost is taken out at the deposit, then the rest grows at the gross APR.{' '}
      <Link to="/methodology">How the net figure is worked out</Link>
    </p>
  );
}

/** What the amount keeps at one source after its costs over the days held. */
export function NetYieldCard({ id, amount, days }: { id: number; amount: number; days: number }) {
  const answer = useQuery({
    ...netYieldQuery(id, amount, days),
    placeholderData: keepPreviousData,
  });
  const sources = useQuery(sourcesQuery);
  const name = findSource(sources.data, id)?.name ?? `Source ${id}`;
  if (answer.isPending) {
    return (
      <div className={saver.result} aria-busy="true">
        <span className="spinner" role="status" aria-label={`Loading the net yield of ${name}`} />
      </div>
    );
  }
  if (answer.isError) {
    return (
      <p className={saver.result} role="status" data-testid={`net-${id}`}>
        The net yield of {name} is unavailable right now.
      </p>
    );
  }
  const a = answer.data;
  return (
    <div className={`${saver.result} ${styles.card}`} data-testid={`net-${id}`} aria-live="polite">
      <p className={saver.note}>
        {name}: what you keep after {a.days} days
      </p>
      <p className={styles.keep} data-testid="net-amount">
        {a.netAmount === null ? 'Unknown' : formatAmount(a.netAmount, a.unit)}
      </p>
      <p className={styles.breakEven} data-testid="break-even">
        {breakEvenText(a)}
      </p>
      <dl className={saver.figures}>
        <div className={saver.figure}>
          <dt>Net APR</dt>
          <dd data-testid="net-apr">{formatApr(a.netApr)}</dd>
        </div>
        <div className={saver.figure}>
          <dt>Gross APR</dt>
          <dd data-testid="gross-apr">{formatApr(a.apr)}</dd>
        </div>
        <div className={saver.figure}>
          <dt>DeFi Base Rate keeps</dt>
          <dd data-testid="net-base">{formatAmount(a.base.netAmount, a.unit)}</dd>
        </div>
      </dl>
      <dl className={styles.costs} aria-label={`Costs of ${name}`}>
        {COST_KINDS.map((kind) => (
          <div key={kind} className={styles.cost} data-testid={`cost-${kind}`}>
            <dt>
              <CostLabel kind={kind} answer={a} />
            </dt>
            <dd>
              <CostValue cost={a.costs[kind]} unit={a.unit} />
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** The calculator's net part: the days held, then each source's card. */
export function NetYieldPart({
  ids,
  amount,
  headingLevel,
}: {
  ids: number[];
  amount: number | null;
  headingLevel: 3 | 4;
}) {
  const [days, setDays] = useState<number>(NET_YIELD_DEFAULT_DAYS);
  const Heading = `h${headingLevel}` as const;
  return (
    <div data-testid="net-yield">
      <Heading>What you keep after fees and gas</Heading>
      <div className={styles.controls}>
        <HoldingSelect days={days} onChange={setDays} />
      </div>
      {amount !== null ? (
        <div className={saver.results}>
          {ids.map((id) => (
            <NetYieldCard key={id} id={id} amount={amount} days={days} />
          ))}
        </div>
      ) : null}
      <NetRule />
    </div>
  );
}
