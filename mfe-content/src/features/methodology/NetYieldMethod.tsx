/**
 * The /methodology page's section on the net yield of a deposit (the reference: docs/methodology.md,
 * "Net yield: what a deposit keeps after its costs"; the API's computation is `netYield` in
 * api/src/engine/net-yield.ts). The worked example is computed here from its inputs with the same
 * rule, so the page cannot show figures the rule does not give.
 */
import ui from '../../shared/components/components.module.css';
import styles from './methodology.module.css';

/** The worked example's inputs (docs/methodology.md, "Net yield"). */
export const NET_EXAMPLE = {
  amount: 10_000,
  days: 30,
  apr: 5,
  /** Fee in basis points, charged on the total (the amount plus the fee). */
  entryBp: 50,
  exitBp: 100,
  baseGwei: 7,
  priorityGwei: 2,
  ethUsd: 3_000,
  /** Gas units of a deposit and of a withdrawal of an ERC-4626 vault (measured). */
  gasIn: 60_095,
  gasOut: 55_517,
} as const;

const growth = (apr: number, days: number) => Math.pow(1 + apr / 100 / 365, days);

/** The worked example under the rule: every cost taken out at the deposit. */
export function netExample(x: typeof NET_EXAMPLE = NET_EXAMPLE) {
  const entry = (x.amount * x.entryBp) / (10_000 + x.entryBp);
  const exit = (x.amount * x.exitBp) / (10_000 + x.exitBp);
  const gwei = (x.baseGwei + x.priorityGwei) * 1e-9;
  const gasIn = x.gasIn * gwei * x.ethUsd;
  const gasOut = x.gasOut * gwei * x.ethUsd;
  const costs = entry + exit + gasIn + gasOut;
  const start = x.amount - costs;
  const net = start * growth(x.apr, x.days);
  const netApr = (net / x.amount - 1) * (365 / x.days) * 100;
  let breakEven: number | null = null;
  if (costs < x.amount && x.apr > 0) {
    breakEven = 0;
    while (start * growth(x.apr, breakEven) < x.amount) breakEven++;
  }
  return { entry, exit, gasIn, gasOut, costs, net, netApr, breakEven };
}

const usd = (v: number) =>
  v.toLocaleString('en-US', { minimumFractionDigits: 4, maximumFractionDigits: 4 });
const whole = (v: number) => v.toLocaleString('en-US');
const percent = (v: number) => `${v < 0 ? '\u2212' : ''}${Math.abs(v).toFixed(2)}%`;

function ExampleTable() {
  const x = NET_EXAMPLE;
  const r = netExample(x);
  const gwei = x.baseGwei + x.priorityGwei;
  const rows: [string, string][] = [
    [`entry: ${whole(x.amount)} × ${x.entryBp} / ${whole(10_000 + x.entryBp)}`, usd(r.entry)],
    [`exit: ${whole(x.amount)} × ${x.exitBp} / ${whole(10_000 + x.exitBp)}`, usd(r.exit)],
    [`gas in: ${whole(x.gasIn)} × ${gwei} gwei × ${whole(x.ethUsd)}`, usd(r.gasIn)],
    [`gas out: ${whole(x.gasOut)} × ${gwei} gwei × ${whole(x.ethUsd)}`, usd(r.gasOut)],
    ['costs', usd(r.costs)],
    [
      `net after ${x.days} days: ${usd(x.amount - r.costs)} × (1 + ${x.apr / 100} / 365)^${x.days}`,
      usd(r.net),
    ],
    [
      `net APR: (${usd(r.net)} / ${whole(x.amount)} − 1) × 365 / ${x.days} × 100`,
      percent(r.netApr),
    ],
    ['break-even', r.breakEven === null ? 'never' : `day ${r.breakEven}`],
  ];
  return (
    <div className={`${ui.tableWrap} ${styles.example}`}>
      <table className={ui.table}>
        <caption className="visually-hidden">Worked example of a net yield</caption>
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col">USD</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([step, value]) => (
            <tr key={step}>
              <th scope="row">{step}</th>
              <td>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function NetYieldMethod() {
  const x = NET_EXAMPLE;
  return (
    <section aria-labelledby="net-yield-title">
      <h2 id="net-yield-title">Net yield: what a deposit keeps after its costs</h2>
      <p>
        A gross APR is not what a saver keeps: a vault may charge on entry and on exit, and each
        transaction costs gas on the chain the source lives on. The net figure uses one simple,
        conservative rule: <strong>every cost is taken out at the deposit</strong>, then the rest
        grows at the gross APR, compounded daily:
      </p>
      {/* Formulas as text that wraps: a phone reads them without scrolling sideways. */}
      <ul className={styles.formulas} aria-label="The net figure's formulas">
        <li>
          <strong>Net amount</strong> = (amount − entry − exit − gas in − gas out) × (1 + APR / 100
          / 365)^days
        </li>
        <li>
          <strong>Net APR</strong> = (net amount / amount − 1) × 365 / days × 100
        </li>
        <li>
          <strong>Break-even day</strong> = the first whole day d ≥ 0 on which (amount − costs) × (1
          + APR / 100 / 365)^d reaches the amount deposited (none when the costs are the whole
          amount or more, or the APR is not positive)
        </li>
      </ul>
      <p>The costs are read from the chain when the data is imported:</p>
      <ul>
        <li>
          <strong>Entry</strong>: the value in assets of <code>convertToShares(A)</code> minus{' '}
          <code>previewDeposit(A)</code>. An ERC-4626 vault&apos;s preview includes its fees, the
          conversion does not.
        </li>
        <li>
          <strong>Exit</strong>: <code>convertToAssets(s)</code> minus <code>previewRedeem(s)</code>{' '}
          for the shares <code>s = convertToShares(A)</code>.
        </li>
        <li>
          The previews are per amount; what is kept is the <strong>fee rate</strong> at a reference
          amount A (cost / A), checked linear: the rate at 100 × A must agree within one part in a
          million, otherwise the cost is unknown (&ldquo;not linear&rdquo;). A request&apos;s cost
          is the rate × the amount.
        </li>
        <li>
          <strong>Gas</strong>: the gas units of a deposit and of a withdrawal of that kind of
          contract (measured on a local node running OpenZeppelin&apos;s ERC-4626: {whole(x.gasIn)}{' '}
          and {whole(x.gasOut)} units, the transaction&apos;s 21,000 included) × the chain&apos;s
          gas price from <code>eth_feeHistory</code> (the next block&apos;s base fee plus the latest
          block&apos;s median priority fee) × the USD price of the chain&apos;s native token;
          converted to the source&apos;s unit with the unit&apos;s USD price of the day. An
          L2&apos;s gas is its own chain&apos;s, not Ethereum&apos;s.
        </li>
        <li>
          A cost that cannot be read (a contract without previews, a call that reverts, a kind of
          contract without a measured gas figure) is <strong>shown as unknown, with why</strong>; it
          is never taken as zero, and no net figure is given while any cost is unknown.
        </li>
      </ul>
      <p>
        Worked example: {whole(x.amount)} USD for {x.days} days in a dollar vault at {x.apr}% APR
        that charges {x.entryBp} bp on entry (on the total) and {x.exitBp} bp on exit, gas at{' '}
        {x.baseGwei + x.priorityGwei} gwei ({x.baseGwei} base + {x.priorityGwei} priority) and ETH
        at {whole(x.ethUsd)} USD:
      </p>
      <ExampleTable />
    </section>
  );
}
