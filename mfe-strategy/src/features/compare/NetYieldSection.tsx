import { useId, useState, type ReactNode } from 'react';
import { keepPreviousData, useQueries } from '@tanstack/react-query';
import { netYieldQuery } from '@yield/platform';
import type { NetYieldAnswer } from '@yield/contract';
import { EARNINGS_MAX_AMOUNT, NET_YIELD_DEFAULT_DAYS } from '@yield/contract/constants';
import { formatAmount, formatApr, formatCount, formatDay } from '@yield/ui';
import { parseAmount } from '../../shared/saver/EarningsCalculator.tsx';
import {
  breakEvenText,
  COST_KINDS,
  CostLabel,
  CostValue,
  chainName,
  HoldingSelect,
  NetRule,
  useSettled,
} from '../../shared/saver/NetYield.tsx';
import saver from '../../shared/saver/saver.module.css';
import net from '../../shared/saver/net-yield.module.css';
import layout from '../../shared/page.module.css';
import type { CompareColumn } from './model.ts';
import { SideTable, type SideRow } from './SideTable.tsx';
import styles from './compare.module.css';

/** The amount the section starts from: the same number in each source's unit. */
const START_AMOUNT = '1000';

/** The rows of the table, one cell per source from its answer. */
function netRows(
  columns: readonly CompareColumn[],
  cell: (i: number, value: (a: NetYieldAnswer) => ReactNode) => ReactNode,
): SideRow[] {
  const row = (label: ReactNode, testId: string, value: (a: NetYieldAnswer) => ReactNode) => ({
    label,
    testId,
    cells: columns.map((_, i) => cell(i, value)),
  });
  return [
    row('What you keep', 'net-amount', (a) => (
      <span className={`${styles.big} ${styles.nowrap}`}>
        {a.netAmount === null ? 'Unknown' : formatAmount(a.netAmount, a.unit)}
      </span>
    )),
    row('Break-even', 'break-even', (a) => breakEvenText(a)),
    row('Net APR', 'net-apr', (a) => formatApr(a.netApr)),
    row('Gross APR', 'gross-apr', (a) => formatApr(a.apr)),
    ...COST_KINDS.map((kind) =>
      row(<CostLabel kind={kind} answer={null} />, `cost-${kind}`, (a) => (
        <CostValue cost={a.costs[kind]} unit={a.unit} />
      )),
    ),
    row('Costs read on', 'costs-as-of', (a) =>
      a.costsAsOf
        ? `${formatDay(a.costsAsOf)}${a.chain ? `, ${chainName(a.chain)}` : ''}`
        : 'Never read',
    ),
    row('DeFi Base Rate keeps', 'net-base', (a) => (
      <>
        {formatAmount(a.base.netAmount, a.unit)}{' '}
        <span className={styles.sub}>{formatApr(a.base.netApr)} net</span>
      </>
    )),
  ];
}

/** The amount and the days held the section's figures are for. */
function NetControls({
  text,
  onText,
  days,
  onDays,
  invalid,
}: {
  text: string;
  onText: (text: string) => void;
  days: number;
  onDays: (days: number) => void;
  invalid: boolean;
}) {
  const inputId = useId();
  const errorId = useId();
  return (
    <>
      <div className={net.controls}>
        <div className={net.control}>
          <label htmlFor={inputId}>Amount in each source&rsquo;s unit</label>
          <input
            id={inputId}
            className={saver.input}
            inputMode="decimal"
            autoComplete="off"
            value={text}
            onChange={(event) => onText(event.target.value)}
            aria-invalid={invalid}
            aria-describedby={invalid ? errorId : undefined}
            data-testid="net-amount-input"
          />
        </div>
        <HoldingSelect days={days} onChange={onDays} />
      </div>
      {invalid ? (
        <p id={errorId} className={saver.error} role="alert">
          Enter an amount above 0 and at most {formatCount(EARNINGS_MAX_AMOUNT)}.
        </p>
      ) : null}
    </>
  );
}

/** The compare page's net figures: each source side by side, for an amount and days held. */
export function NetYieldSection({ columns }: { columns: CompareColumn[] }) {
  const [text, setText] = useState(START_AMOUNT);
  const [days, setDays] = useState<number>(NET_YIELD_DEFAULT_DAYS);
  const parsed = parseAmount(text);
  const settled = useSettled(parsed);
  const amount = parsed === null ? null : settled;
  const answers = useQueries({
    queries: columns.map((c) => ({
      ...netYieldQuery(c.source.id, amount ?? 1, days),
      enabled: amount !== null,
      placeholderData: keepPreviousData,
    })),
  });
  const cell = (i: number, value: (a: NetYieldAnswer) => ReactNode) => {
    const answer = answers[i]!;
    if (answer.data) return value(answer.data);
    if (answer.isError) return 'Unavailable right now';
    return <span className="spinner" role="status" aria-label="Loading the net yield" />;
  };
  return (
    <section className={layout.section} aria-labelledby="net-heading" data-section="net-yield">
      <h2 id="net-heading">What you keep after fees and gas</h2>
      <NetControls text={text} onText={setText} days={days} onDays={setDays} invalid={!parsed} />
      {amount !== null ? (
        <SideTable
          caption={`What ${text} in each source's unit keeps after ${days} days`}
          columns={columns}
          rows={netRows(columns, cell)}
          testId="net-table"
          wide
        />
      ) : null}
      <NetRule />
    </section>
  );
}
